import jax
import jax.numpy as jnp


def g(x):
    return jnp.where(x < 5, 0, x)


if __name__ == "__main__":
    x = jnp.arange(10)
    print(jax.jit(g)(x))  # no error
