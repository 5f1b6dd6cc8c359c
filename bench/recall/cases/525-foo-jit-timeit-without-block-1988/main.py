import timeit

import jax.numpy as jnp
import numpy as np
from jax import jit


def foo(x):
    return jnp.tanh(jnp.dot(x, x.T)).sum(axis=0)


foo_jit = jit(foo)

if __name__ == "__main__":
    foo_jit(np.ones((500, 500)))  # compile
    for i in range(5):
        t = timeit.timeit(lambda: foo_jit(np.ones((500, 500))), number=10)
        print(f"10 loops: {t / 10 * 1e3:.3f} ms per loop")
