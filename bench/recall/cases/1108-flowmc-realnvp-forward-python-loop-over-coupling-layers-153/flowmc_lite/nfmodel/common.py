from typing import Tuple

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array


class MLPAffine(eqx.Module):
    scale: eqx.nn.MLP
    shift: eqx.nn.MLP

    def __init__(self, scale: eqx.nn.MLP, shift: eqx.nn.MLP):
        self.scale = scale
        self.shift = shift

    def __call__(self, x: Array) -> Tuple[Array, Array]:
        return self.scale(x), self.shift(x)


class MaskedCouplingLayer(eqx.Module):
    _mask: Array
    bijector: MLPAffine

    def __init__(self, bijector: MLPAffine, mask: Array):
        self.bijector = bijector
        self._mask = mask

    @property
    def mask(self):
        return jax.lax.stop_gradient(self._mask)

    def __call__(self, x: Array) -> Tuple[Array, Array]:
        return self.forward(x)

    def forward(self, x: Array) -> Tuple[Array, Array]:
        scale, shift = self.bijector(x * self.mask)
        scale = jnp.tanh(scale) * (1 - self.mask)
        shift = shift * (1 - self.mask)
        y = x * jnp.exp(scale) + shift
        return y, scale.sum()

    def inverse(self, x: Array) -> Tuple[Array, Array]:
        scale, shift = self.bijector(x * self.mask)
        scale = jnp.tanh(scale) * (1 - self.mask)
        shift = shift * (1 - self.mask)
        y = (x - shift) * jnp.exp(-scale)
        return y, -scale.sum()
