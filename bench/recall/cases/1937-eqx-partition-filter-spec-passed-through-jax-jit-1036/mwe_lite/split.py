import jax
import jax.numpy as jnp
import equinox as eqx

@jax.jit
def partition(params, params_mask):
    return eqx.partition(params, filter_spec=params_mask)
