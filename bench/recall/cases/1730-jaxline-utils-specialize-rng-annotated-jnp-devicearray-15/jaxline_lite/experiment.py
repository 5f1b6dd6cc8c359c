"""Base classes for training JAXline experiments."""

import abc
from typing import Dict, Optional

import jax
import jax.numpy as jnp
from jaxline_lite import utils
import numpy as np


class AbstractExperiment(abc.ABC):
  """The base class for training JAXline experiments."""

  CHECKPOINT_ATTRS = {}
  NON_BROADCAST_CHECKPOINT_ATTRS = {}

  @abc.abstractmethod
  def __init__(self, mode: str, init_rng: Optional[jnp.DeviceArray] = None):
    """Constructs the experiment."""

  @abc.abstractmethod
  def step(
      self,
      *,
      global_step: jnp.ndarray,
      rng: jnp.ndarray,
  ) -> Dict[str, np.ndarray]:
    """Performs a step of computation e.g. a training step."""

  def train_rng(self, rng, host_id=0):
    specialize = jax.pmap(
        lambda r, h: utils.specialize_rng_host_device(r, h, axis_name="i"),
        axis_name="i")
    n = jax.local_device_count()
    return specialize(jnp.broadcast_to(rng, (n,) + rng.shape),
                      jnp.full((n,), host_id))
