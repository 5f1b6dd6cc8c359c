import jax.numpy as jnp
from jax import random

if __name__ == "__main__":
    print(random.uniform(random.PRNGKey(0), dtype=jnp.float64).dtype)
