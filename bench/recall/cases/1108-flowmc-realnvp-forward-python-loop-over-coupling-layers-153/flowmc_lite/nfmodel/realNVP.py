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

    affine_coupling: List[MaskedCouplingLayer]
    _n_features: int

    def __init__(self, n_features: int, n_layers: int, n_hidden: int, key: PRNGKeyArray):
        self._n_features = n_features
        affine_coupling = []
        for i in range(n_layers):
            key, scale_subkey, shift_subkey = jax.random.split(key, 3)
            mask = np.ones(n_features)
            mask[int(n_features / 2) :] = 0
            if i % 2 == 0:
                mask = 1 - mask
            mask = jnp.array(mask)
            scale_MLP = eqx.nn.MLP(n_features, n_features, n_hidden, 1, key=scale_subkey)
            shift_MLP = eqx.nn.MLP(n_features, n_features, n_hidden, 1, key=shift_subkey)
            affine_coupling.append(
                MaskedCouplingLayer(MLPAffine(scale_MLP, shift_MLP), mask)
            )
        self.affine_coupling = affine_coupling

    def __call__(self, x: Array) -> Tuple[Array, Float]:
        return self.forward(x)

    def forward(self, x: Array) -> Tuple[Array, Float]:
        log_det = 0.0
        for i in range(len(self.affine_coupling)):
            x, log_det_i = self.affine_coupling[i](x)
            log_det += log_det_i
        return x, log_det

    @eqx.filter_jit
    def log_prob(self, x: Float[Array, "n_dim"]) -> Float:
        y, log_det = self.__call__(x)
        log_det = log_det + jax.scipy.stats.multivariate_normal.logpdf(
            y, jnp.zeros(self._n_features), jnp.eye(self._n_features)
        )
        return log_det
