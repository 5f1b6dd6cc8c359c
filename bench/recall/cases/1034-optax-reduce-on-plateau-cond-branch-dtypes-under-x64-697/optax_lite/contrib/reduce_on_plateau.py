"""Reduce Learning Rate on Plateau callback.

This callback monitors a quantity and if no improvement is seen for a 'patience'
number of epochs, the learning rate is reduced by a factor of 'reduce_factor'.
Optionally, a cooldown period can be specified during which the learning rate
will not be reduced.
"""
from typing import NamedTuple, Tuple

import jax
import jax.numpy as jnp
import optax


class ReduceLROnPlateauState(NamedTuple):
  """State for the ReduceLROnPlateau callback."""
  lr: jax.Array  # shape=(), dtype=jnp.float32
  best_loss: jax.Array  # shape=(), dtype=jnp.float32
  plateau_count: jax.Array  # shape=(), dtype=jnp.int32
  cooldown_counter: jax.Array  # shape=(), dtype=jnp.int32


def reduce_on_plateau(
    factor: float = 0.1,
    patience: int = 10,
    threshold: float = 1e-4,
    cooldown: int = 0,
) -> optax.GradientTransformationExtraArgs:
  """Reduce learning rate when a metric has stopped improving."""

  def init_fn(params) -> ReduceLROnPlateauState:
    del params
    return ReduceLROnPlateauState(
        best_loss=jnp.asarray(float("inf"), dtype=jnp.float32),
        plateau_count=jnp.asarray(0, jnp.int32),
        lr=jnp.asarray(1.0, dtype=jnp.float32),
        cooldown_counter=jnp.asarray(0, jnp.int32),
    )

  def update_fn(
      updates: optax.Updates,
      state: ReduceLROnPlateauState,
      params=None,
      *,
      loss,
      **extra_args,
  ) -> Tuple[optax.Params, ReduceLROnPlateauState]:
    del params, extra_args

    # Update plateau count and check if plateaued
    has_improved = jnp.where((loss / state.best_loss - 1) < -threshold, 1, 0)
    new_best_loss = jnp.where(has_improved, loss, state.best_loss)

    curr_plateau_count = jnp.where(
        has_improved, 0, optax.safe_int32_increment(state.plateau_count)
    )

    # We're in cooldown, so reduce the counter and ignore any bad epochs
    def in_cooldown():
      new_plateau_count = 0
      new_lr = state.lr
      new_cooldown_counter = state.cooldown_counter - 1
      return new_plateau_count, new_lr, new_cooldown_counter

    # We're not in cooldown, so update the plateau count and lr as usual
    def not_in_cooldown():
      new_plateau_count = jnp.where(
          curr_plateau_count == patience, 0, curr_plateau_count
      )
      new_lr = jnp.where(
          curr_plateau_count == patience,
          state.lr * factor,
          state.lr,
      )
      new_cooldown_counter = jnp.where(
          curr_plateau_count == patience, cooldown, 0
      )
      return new_plateau_count, new_lr, new_cooldown_counter

    new_plateau_count, new_lr, new_cooldown_counter = jax.lax.cond(
        state.cooldown_counter > 0, in_cooldown, not_in_cooldown
    )

    updates = jax.tree_util.tree_map(lambda g: new_lr * g, updates)

    new_state = ReduceLROnPlateauState(
        plateau_count=new_plateau_count,
        best_loss=new_best_loss,
        lr=new_lr,
        cooldown_counter=new_cooldown_counter,
    )
    return updates, new_state

  return optax.GradientTransformationExtraArgs(init_fn, update_fn)
