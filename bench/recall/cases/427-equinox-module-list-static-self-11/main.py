from functools import partial
from typing import Callable, List

import equinox as eqx
import jax
import jax.numpy as jnp


class NeuronLayer(eqx.Module):
    lagrangian: Callable
    shape: tuple
    tau: float = 1.0


class SimpleModule(eqx.Module):
    layers: List[NeuronLayer]
    W: jnp.ndarray

    def __init__(self, key):
        self.layers = [NeuronLayer(jax.nn.relu, (32,)), NeuronLayer(jax.nn.softmax, (500,), 0.0)]
        self.W = jax.random.normal(key, (32, 500))

    @partial(jax.jit, static_argnums=0)
    def energy(self, x):
        g = self.layers[0].lagrangian(x)
        return -jnp.sum(g @ self.W)


if __name__ == "__main__":
    model = SimpleModule(jax.random.PRNGKey(0))
    print(model.energy(jnp.ones(32)))
