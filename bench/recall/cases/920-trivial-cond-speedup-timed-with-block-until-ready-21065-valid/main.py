import time

import jax
import jax.numpy as jnp


@jax.jit
def main():
    x = jnp.arange(300 * 10000, dtype=jnp.float32).reshape(300, 10000)
    return jnp.cumsum(jnp.sin(x), axis=1)


if __name__ == "__main__":
    for i in range(5):
        s = time.time()
        B = jax.block_until_ready(main())
        print(time.time() - s)
