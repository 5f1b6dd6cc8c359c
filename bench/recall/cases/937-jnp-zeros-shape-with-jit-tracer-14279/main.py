import jax
import jax.numpy as jnp


@jax.jit
def f(n):
    return jnp.zeros((8, n))


if __name__ == "__main__":
    f(3)
