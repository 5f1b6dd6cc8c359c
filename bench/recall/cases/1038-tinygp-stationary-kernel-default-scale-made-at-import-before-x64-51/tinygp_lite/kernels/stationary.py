from __future__ import annotations

__all__ = ["Stationary", "Matern32"]

import jax.numpy as jnp
import numpy as np

from tinygp_lite.helpers import JAXArray


class Stationary:
    """A stationary kernel is defined with respect to a distance metric

    Args:
        scale: The length scale, in the same units as ``distance`` for the
            kernel. This must be a scalar.
    """

    def __init__(self, scale: JAXArray = jnp.ones(())):
        self.scale = scale

    def evaluate(self, X1: JAXArray, X2: JAXArray) -> JAXArray:
        r = jnp.abs(X1 - X2) / self.scale
        return self.evaluate_radial(r)


class Matern32(Stationary):
    def evaluate_radial(self, tau: JAXArray) -> JAXArray:
        arg = np.sqrt(3.0) * tau
        return (1 + arg) * jnp.exp(-arg)
