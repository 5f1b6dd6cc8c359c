import time

from jax import jit, grad
import jax.numpy as np
from jax import lax


def func_jax(x):
    def body(f_prev, x_i):
        return f_prev + x_i, f_prev + x_i
    _, f = lax.scan(body, 0., x)
    return np.sum(f)


x = np.arange(10000.0)

if __name__ == "__main__":
    g_jit = jit(grad(func_jax))
    for _ in range(3):
        t0 = time.perf_counter()
        g = g_jit(x).block_until_ready()
        print(f"{time.perf_counter() - t0:.4f} s")
