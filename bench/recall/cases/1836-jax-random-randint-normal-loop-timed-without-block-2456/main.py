import time

import jax
import numpy as np
key = jax.random.PRNGKey(0)

N = 2000

if __name__ == "__main__":
    start = time.time()
    for i in range(N):
        a = np.random.randint(100, size=(100,))
    end = time.time()
    print("np's randint: ", end-start)

    start = time.time()
    for i in range(N):
        a = jax.random.randint(key, (100,), 0, 100)
    end = time.time()
    print("jnp's randint: ", end-start)

    start = time.time()
    for i in range(N):
        # a = np.random.randint(100, size=(100,))
        a = np.random.randn(100,)
    end = time.time()
    print("np's randn: ", end-start)

    start = time.time()
    for i in range(N):
        a = jax.random.normal(key, shape=(100,))
    end = time.time()
    print("jnp's normal: ", end-start)
