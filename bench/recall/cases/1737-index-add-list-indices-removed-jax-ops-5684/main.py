import time

import jax
import jax.numpy as jnp
from jax import jit


def f(x, indices, y):
    return jax.ops.index_add(x, (indices,), y)


x = jnp.ones(10000)
y = jnp.ones(3000)

if __name__ == "__main__":
    indices = list(range(3000))
    start = time.time()
    f(x, indices, y)
    print('list: ' + str(time.time() - start))
