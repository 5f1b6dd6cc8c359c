import jax.numpy as jnp
from jax import jit


@jit
def func(x, axis):
    return x.min(axis)


if __name__ == "__main__":
    func(jnp.arange(4), 0)
