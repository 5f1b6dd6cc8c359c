import jax.numpy as jnp
from jax import grad


def f(x):
    delta = jnp.array((0, 1)) * x
    return jnp.sum(delta[delta > 0]**0.5)


if __name__ == "__main__":
    print("grad:", grad(f)(1.))
