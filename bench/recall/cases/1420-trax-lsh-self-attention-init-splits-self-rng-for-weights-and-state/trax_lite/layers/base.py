"""Stand-in for trax.layers.base.Layer: weights, state, an rng and init."""
import jax


class Layer:

  def __init__(self, n_in=1, n_out=1, name=None):
    self._name = name
    self.weights = ()
    self.state = ()
    self.rng = jax.random.key(0)

  def init(self, input_signature, rng=None):
    if rng is not None:
      self.rng = rng
    self.init_weights_and_state(input_signature)
    return self.weights, self.state
