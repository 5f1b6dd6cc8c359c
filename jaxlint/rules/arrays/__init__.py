"""JAX1xx array rules: in-place updates of immutable arrays, lists passed to jax.numpy."""
