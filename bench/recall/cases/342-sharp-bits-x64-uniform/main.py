import jax.numpy as jnp
from jax import random

if __name__ == "__main__":
    x = random.uniform(random.key(0), (1000,), dtype=jnp.float64)
    print(x.dtype)  # --> dtype('float32')
