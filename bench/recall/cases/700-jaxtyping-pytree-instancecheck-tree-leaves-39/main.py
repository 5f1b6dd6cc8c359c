import jax.numpy as jnp

from jaxtyping_lite import PyTree

if __name__ == "__main__":
    params = {"w": jnp.ones((2, 2)), "b": [jnp.zeros(2), jnp.zeros(2)]}
    print("is PyTree[jnp.ndarray]:", isinstance(params, PyTree[jnp.ndarray]))
