import time

import jax
import jax.numpy as jnp
from jax import jit


def f(x, indices, y):
    return x.at[indices].add(y)


x = jnp.ones(10000)
y = jnp.ones(3000)

if __name__ == "__main__":
    indices = jnp.array(list(range(3000)))
    f_jit = jit(f)
    start = time.time()
    out = f_jit(x, indices, y).block_until_ready()
    print('array jitting: ' + str(time.time() - start))
    print("sum:", float(out.sum()))
