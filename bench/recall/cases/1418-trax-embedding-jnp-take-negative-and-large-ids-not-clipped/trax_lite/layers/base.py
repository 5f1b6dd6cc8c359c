"""Stand-in for trax.layers.base.Layer: weights, an rng, init and __call__."""
import jax


class Layer:

  def __init__(self, name=None):
    self._name = name
    self.weights = ()
    self.rng = jax.random.PRNGKey(0)

  def init(self, input_signature):
    self.init_weights_and_state(input_signature)
    return self.weights, ()

  def __call__(self, x):
    return self.forward(x)
