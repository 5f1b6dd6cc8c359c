import jax
import jax.numpy as jnp
import time


def slow_function(x):
    result = 0.0
    for i in range(1000):
        result = result + jnp.sin(x) * 0.001
    return result


jit_function = jax.jit(slow_function)

x = jnp.array(3.14)

if __name__ == "__main__":
    start = time.perf_counter()
    for _ in range(100):
        slow_function(x)
    end = time.perf_counter()
    python_time = end - start

    start = time.perf_counter()
    for _ in range(100):
        jit_function(x)
    end = time.perf_counter()
    jit_time = end - start

    print(f"Python loop time: {python_time:.4f}s")
    print(f"JIT time: {jit_time:.4f}s")
    eqns = jax.make_jaxpr(slow_function)(x).jaxpr.eqns
    print("unrolled:", len(eqns) >= 1000)
