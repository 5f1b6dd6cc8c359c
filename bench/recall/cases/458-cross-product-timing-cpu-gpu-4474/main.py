import time

import jax.numpy as jnp
import numpy as np

n = 1000
a = np.random.rand(n, n).astype(np.float32)
b = np.random.rand(n, n).astype(np.float32)

if __name__ == "__main__":
    start = time.time()
    np.matmul(a, b)
    print(f"Numpy took {time.time() - start:.3f} seconds")

    a_j, b_j = jnp.asarray(a), jnp.asarray(b)
    jnp.matmul(a_j, b_j).block_until_ready()  # warm up
    start = time.time()
    jnp.matmul(a_j, b_j)
    print(f"Jax took {time.time() - start:.3f} seconds")
