"""JAX5xx performance rules: recompilation, unrolled loops, timing, donated buffers."""
