import jax
from jax import numpy as jnp


def func(mu):

    print((mu.astype(float)))
    print(mu)
    print(mu.astype(int))

    return mu


f = jax.grad(func)

if __name__ == "__main__":
    print(f(jnp.array(5.0)))
