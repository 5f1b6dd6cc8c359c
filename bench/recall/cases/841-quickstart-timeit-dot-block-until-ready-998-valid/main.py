import timeit

import jax.numpy as np
from jax import random

key = random.PRNGKey(0)

if __name__ == "__main__":
    size = 3000
    x = random.normal(key, (size, size), dtype=np.float32)
    np.dot(x, x.T).block_until_ready()  # compile first
    # %timeit np.dot(x, x.T).block_until_ready()
    print(min(timeit.repeat(lambda: np.dot(x, x.T).block_until_ready(), number=1, repeat=5)))
