from jax.config import config; config.update("jax_enable_x64", True)
from jax import numpy as np, random

x = random.uniform(random.PRNGKey(0), (1000,), dtype=np.float64)

if __name__ == "__main__":
    print(x.dtype)
