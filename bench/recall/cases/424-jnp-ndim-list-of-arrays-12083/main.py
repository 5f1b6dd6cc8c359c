import jax
from jax import numpy as jnp

func = lambda x: x + jnp.ndim([jnp.ones(1)])

if __name__ == "__main__":
    print(func(0.))
    jax.jit(func)(0.)
