import jax
import jax.numpy as jnp


def f(a):
    return a[jnp.nonzero(a)].prod()


if __name__ == "__main__":
    jax.jit(f)(jnp.array([0, 1, 2, 3]))
