"""Utility functions for Jaxline (the ones train() uses, reduced)."""
import contextlib
import types

import jax
import jax.numpy as jnp


@contextlib.contextmanager
def log_activity(activity_name: str):
  yield


def bcast_local_devices(value):
  """Broadcasts an object to all local devices."""
  devices = jax.local_devices()
  return jax.tree_util.tree_map(
      lambda v: jax.device_put(jnp.stack(len(devices) * [v])), value)


class Checkpointer:
  """In-memory stand-in for jaxline's checkpointer."""

  def __init__(self):
    self._state = types.SimpleNamespace()

  def get_experiment_state(self, ckpt_series: str):
    return self._state

  def can_be_restored(self, ckpt_series: str) -> bool:
    return False
