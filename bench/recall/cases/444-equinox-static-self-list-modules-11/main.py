import jax
import jax.numpy as jnp

from hopfield.layers import NeuronLayer
from hopfield.network import SimpleModule

if __name__ == "__main__":
    layers = [NeuronLayer(jax.nn.relu, (32,)), NeuronLayer(jax.nn.softmax, (500,), 0.0)]
    model = SimpleModule(layers, jax.random.PRNGKey(0))
    print(model.energy(jnp.ones(32)))
