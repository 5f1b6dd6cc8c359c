"""JAX101, JAX102, JAX130 array rules: in-place updates of immutable arrays, lists passed to jax.numpy."""
