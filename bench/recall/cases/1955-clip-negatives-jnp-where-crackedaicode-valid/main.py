import jax
import jax.numpy as jnp

from clipping import clip_v3

if __name__ == "__main__":
    x = jnp.array([-1.0, 2.0, -3.0])
    print("clip_v3", jax.jit(clip_v3)(x))
