import numpy as np


def array_namespace(*arrays):
    """Return the array namespace of the arrays (NumPy unless one is a JAX array)."""
    try:
        import jax
    except ImportError:
        return np
    if any(isinstance(a, jax.Array) for a in arrays):
        import jax.numpy as jnp
        return jnp
    return np
