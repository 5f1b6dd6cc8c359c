from typing import List, Tuple

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Float, PRNGKeyArray

from flowmc_lite.nfmodel.common import MaskedCouplingLayer, MLPAffine


class RealNVP(eqx.Module):
    """
    RealNVP mode defined in the paper https://arxiv.org/abs/1605.08803.
    MLP is needed to make sure the scaling between layers are more or less the same.

    Args:
        n_layers: (int) The number of affine coupling layers.
        n_features: (int) The number of features in the input.
        n_hidden: (int) The number of hidden units in the MLP.
    """

    affine_coupling: MaskedCouplingLayer
    _n_features: int

    def __init__(self, n_features: int, n_layers: int, n_hidden: int, key: PRNGKeyArray):
        self._n_features = n_features

        def make_layer(i: int, key: PRNGKeyArray):
            key, scale_subkey, shift_subkey = jax.random.split(key, 3)
            mask = jnp.ones(n_features)
            mask = mask.at[: int(n_features / 2)].set(0)
            mask = jax.lax.cond(i % 2 == 0, lambda x: 1 - x, lambda x: x, mask)
            scale_MLP = eqx.nn.MLP(n_features, n_features, n_hidden, 1, key=scale_subkey)
            shift_MLP = eqx.nn.MLP(n_features, n_features, n_hidden, 1, key=shift_subkey)
            return MaskedCouplingLayer(MLPAffine(scale_MLP, shift_MLP), mask)

        keys = jax.random.split(key, n_layers)
        self.affine_coupling = eqx.filter_vmap(make_layer)(jnp.arange(n_layers), keys)

    def __call__(self, x: Array) -> Tuple[Array, Float]:
        return self.forward(x)

    def forward(self, x: Array) -> Tuple[Array, Float]:
        log_det = 0.0
        dynamics, statics = eqx.partition(self.affine_coupling, eqx.is_array)

        def f(carry, data):
            x, log_det = carry
            layers = eqx.combine(data, statics)
            x, log_det_i = layers(x)
            return (x, log_det + log_det_i), None

        (x, log_det), _ = jax.lax.scan(f, (x, log_det), dynamics)
        return x, log_det

    @eqx.filter_jit
    def log_prob(self, x: Float[Array, "n_dim"]) -> Float:
        y, log_det = self.__call__(x)
        log_det = log_det + jax.scipy.stats.multivariate_normal.logpdf(
            y, jnp.zeros(self._n_features), jnp.eye(self._n_features)
        )
        return log_det
