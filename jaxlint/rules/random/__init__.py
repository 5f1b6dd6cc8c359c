"""JAX3xx random-number rules: PRNG key reuse."""
