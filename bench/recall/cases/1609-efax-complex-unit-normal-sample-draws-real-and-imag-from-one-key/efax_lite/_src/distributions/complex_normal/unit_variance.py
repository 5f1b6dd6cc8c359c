from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import jax.random as jr

from ...samplable import Samplable

KeyArray = jax.Array
Shape = tuple[int, ...]


@dataclass
class ComplexUnitVarianceNormalNP(Samplable):
    """The natural parametrization of the complex unit normal distribution.

    Args:
        two_mean_conjugate: 2 * E(conjugate(x)).
    """
    two_mean_conjugate: jax.Array

    @property
    def shape(self) -> Shape:
        return self.two_mean_conjugate.shape

    def to_exp(self) -> ComplexUnitVarianceNormalEP:
        return ComplexUnitVarianceNormalEP(jnp.conj(self.two_mean_conjugate) * 0.5)

    def sample(self, key: KeyArray, shape: Shape | None = None) -> jax.Array:
        return self.to_exp().sample(key, shape)


@dataclass
class ComplexUnitVarianceNormalEP(Samplable):
    """The expectation parametrization of the complex unit normal distribution.

    Args:
        mean: E(x).
    """
    mean: jax.Array

    @property
    def shape(self) -> Shape:
        return self.mean.shape

    def to_nat(self) -> ComplexUnitVarianceNormalNP:
        return ComplexUnitVarianceNormalNP(jnp.conj(self.mean) * 2.0)

    def sample(self, key: KeyArray, shape: Shape | None = None) -> jax.Array:
        shape = self.shape if shape is None else shape + self.shape
        a = jr.normal(key, shape)
        b = jr.normal(key, shape)
        return a + 1j * b + self.mean
