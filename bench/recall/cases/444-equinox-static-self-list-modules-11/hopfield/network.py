from functools import partial
from typing import List

import equinox as eqx
import jax
import jax.numpy as jnp

from hopfield.layers import NeuronLayer


class SimpleModule(eqx.Module):
    layers: List[NeuronLayer]
    W: jnp.ndarray

    def __init__(self, layers, key):
        self.layers = layers
        self.W = jax.random.normal(key, (32, 500))

    @partial(jax.jit, static_argnums=0)
    def energy(self, x):
        g = self.layers[0].lagrangian(x)
        return -jnp.sum(g @ self.W)
