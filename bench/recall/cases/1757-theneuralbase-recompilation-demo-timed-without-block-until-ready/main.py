import jax
import jax.numpy as jnp
import time

@jax.jit
def add_one(x):
    return x + 1

if __name__ == "__main__":
    print("=== First shape: (5,) ===")
    start = time.perf_counter()
    result1 = add_one(jnp.array([1.0, 2.0, 3.0, 4.0, 5.0]))
    first_compile_time = time.perf_counter() - start
    print(f"Result: {result1}")
    print(f"Time (includes compilation): {first_compile_time * 1000:.3f} ms")

    print("\n=== Same shape again: (5,) ===")
    start = time.perf_counter()
    result2 = add_one(jnp.array([10.0, 20.0, 30.0, 40.0, 50.0]))
    same_shape_time = time.perf_counter() - start
    print(f"Result: {result2}")
    print(f"Time (reuses compiled code): {same_shape_time * 1000:.3f} ms")

    print("\n=== Different shape: (3,) — RECOMPILATION ===")
    start = time.perf_counter()
    result3 = add_one(jnp.array([1.0, 2.0, 3.0]))
    recompile_time = time.perf_counter() - start
    print(f"Result: {result3}")
    print(f"Time (recompiles for new shape): {recompile_time * 1000:.3f} ms")
