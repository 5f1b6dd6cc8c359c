import numpy as np
from jax import random

x = random.uniform(random.PRNGKey(0), (1000,), dtype="float64")

if __name__ == "__main__":
    print(x.dtype)  # return float32
