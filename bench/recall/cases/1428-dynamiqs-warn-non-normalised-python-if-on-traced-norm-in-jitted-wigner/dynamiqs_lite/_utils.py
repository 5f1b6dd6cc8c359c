import jax
import jax.numpy as jnp


def _get_default_dtype() -> jnp.dtype:
    return jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
