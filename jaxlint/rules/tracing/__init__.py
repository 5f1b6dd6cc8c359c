"""JAX2xx tracing rules: Python control flow, conversions and shapes on tracers, static arguments."""
