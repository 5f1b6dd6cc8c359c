import jax
import jax.numpy as jnp


@jax.jit
def clip_first(x):
    x[0] = 0.0
    return x * 2


if __name__ == "__main__":
    print(clip_first(jnp.linspace(-1.0, 1.0, 8)))
