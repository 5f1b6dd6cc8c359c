import jax.numpy as jnp


def residual(x, target):
    """Constraint residual evaluated by the NLP relaxation."""
    return jnp.asarray(x) - target
