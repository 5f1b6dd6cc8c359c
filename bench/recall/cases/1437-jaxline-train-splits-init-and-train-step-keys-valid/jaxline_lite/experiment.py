"""Base classes for training JAXline experiments (reduced)."""
import abc

import jax
import jax.numpy as jnp

from jaxline_lite import utils


class AbstractExperiment(abc.ABC):
  """The base class for training JAXline experiments."""

  def initialize_train_step_rng(self, rng: jnp.ndarray) -> jnp.ndarray:
    """Initializes train_step_rng on devices as a suitable JAX array."""
    return utils.bcast_local_devices(rng)

  @abc.abstractmethod
  def step(self, *, global_step, rng, writer):
    """Performs a step of computation e.g. a training step."""

  def train_loop(self, config, state, periodic_actions, writer=None):
    """Default training loop implementation (one device, no periodic actions)."""
    step_key = state.train_step_rng[0]
    while state.global_step < config.training_steps:
      step_key, step_rng = jax.random.split(step_key)
      scalar_outputs = self.step(
          global_step=state.global_step, rng=step_rng, writer=writer)
      state.global_step += 1
    return scalar_outputs
