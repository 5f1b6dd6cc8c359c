from functools import partial

import jax
import jax.numpy as jnp

# DYNAMIC VALUE: changes between calls, flows through compiled code
@jax.jit
def sum_dynamic(x):
    return jnp.sum(x)

# STATIC VALUE: known at compile time, affects the compiled code itself
@jax.jit
def repeat_array(x, n: int):
    # n MUST be static because it controls Python-level loop structure
    result = x
    for i in range(n):
        result = jnp.concatenate([result, x])
    return result

# Example 1: Dynamic values (shapes stay the same, data changes)
print("Example 1: Dynamic values")
result1 = sum_dynamic(jnp.array([1.0, 2.0, 3.0]))
print(f"sum_dynamic([1, 2, 3]) = {result1}")

if __name__ == "__main__":
    # Example 2: Static values
    print("Example 2: Static values")
    out = repeat_array(jnp.array([1.0, 2.0]), 2)
    print("repeat_array shape:", out.shape)
