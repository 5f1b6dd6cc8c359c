import jax
import jax.numpy as jnp

from clipping import clip_v1, clip_v2

if __name__ == "__main__":
    x = jnp.array([-1.0, 2.0, -3.0])
    for clip in (clip_v1, clip_v2):
        try:
            print(clip.__name__, jax.jit(clip)(x))
        except jax.errors.TracerBoolConversionError as e:
            print(f"{clip.__name__}: TracerBoolConversionError: {str(e).splitlines()[0]}")
