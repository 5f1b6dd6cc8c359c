"""JAX9xx: removed, renamed and deprecated JAX APIs (one shared check, ``_check.py``)."""
