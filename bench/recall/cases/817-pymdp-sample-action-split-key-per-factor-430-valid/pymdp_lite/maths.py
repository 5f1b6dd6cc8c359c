import jax.numpy as jnp

MINVAL = jnp.finfo(float).eps


def log_stable(x):
    """Compute stable logarithm with minimum clipping."""
    return jnp.log(jnp.clip(x, min=MINVAL))
