import types

import jax
import jax.numpy as jnp

from jaxline_lite import experiment, train, utils


class Experiment(experiment.AbstractExperiment):
  """A linear model trained with noisy inputs."""

  def __init__(self, mode, init_rng):
    self.mode = mode
    self.params = jax.random.normal(init_rng, (4,))

  def step(self, *, global_step, rng, writer):
    x = jax.random.normal(rng, (8, 4))
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((x @ p) ** 2))(self.params)
    self.params = self.params - 0.1 * grads
    return {"loss": loss}


if __name__ == "__main__":
  jax.config.update("jax_debug_key_reuse", True)
  config = types.SimpleNamespace(random_seed=42, experiment_kwargs={}, training_steps=3)
  try:
    out = train.train(Experiment, config, utils.Checkpointer())
    print("KeyReuseError: False", out)
  except Exception as e:  # jax.errors.KeyReuseError
    print(f"{type(e).__name__}: {str(e).splitlines()[0][:70]}")
