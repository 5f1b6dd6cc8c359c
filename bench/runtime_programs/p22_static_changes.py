from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n


def run(x):
    total = 0.0
    for n in range(4):
        total = total + power(x, n)
    return total


if __name__ == "__main__":
    print(run(jnp.arange(3.0)))
