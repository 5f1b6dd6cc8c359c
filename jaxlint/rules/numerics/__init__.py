"""JAX110-JAX123 numerics rules: 64-bit dtypes, NaN gradients, out-of-bounds indices, casts."""
