"""JAX001: files that do not parse."""
