import time

import jax
import jax.numpy as jnp

X = jnp.ones((1000, 1000))

if __name__ == "__main__":
    result = jnp.cos(X)
    jax.device_get(result)  # warm up

    start = time.time()
    result2 = jnp.cos(X)
    jax.device_get(result2)  # Force execution completion
    second_time = time.time() - start
    print("second run:", second_time)
