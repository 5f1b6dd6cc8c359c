from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=["A_s_1e9", "n_s"], meta_fields=[])
@dataclass
class Cosmology:
    A_s_1e9: jax.Array
    n_s: jax.Array


def linear_power(k, a, cosmo, conf):
    """Power-law stand-in for pmwd's linear matter power spectrum."""
    k = jnp.where(k > 0, k, 1.0)
    Plin = cosmo.A_s_1e9 * k ** (cosmo.n_s - 4.0)
    if a is not None:
        Plin = Plin * a**2
    return Plin.astype(conf.float_dtype)
