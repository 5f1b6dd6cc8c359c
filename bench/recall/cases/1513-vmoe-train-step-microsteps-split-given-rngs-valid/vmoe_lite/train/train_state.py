from typing import Any

import flax
import flax.training.train_state
import jax
import optax


class TrainState(flax.training.train_state.TrainState):
  """Stand-in for vmoe's TrainState: a flax TrainState that carries the rngs."""
  rngs: Any = None

  def apply_gradients_and_compute_global_norms(self, grads, **kwargs):
    global_norms = {'grads': optax.global_norm(grads)}
    return self.apply_gradients(grads=grads, **kwargs), global_norms
