import jax.numpy as jnp
from jax import jit


def f(x, n):
    y = 0.
    for i in range(n):
        y = y + x[i]
    return y


f = jit(f)

if __name__ == "__main__":
    f(jnp.array([2., 3., 4.]), 2)
