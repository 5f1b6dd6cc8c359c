"""Schedule-Free wrapper for faster training & removes the need for lr decay."""

from typing import NamedTuple, Optional

import jax
import jax.numpy as jnp
from optax._src import base
from optax._src import numerics


class ScheduleFreeState(NamedTuple):
  """State for schedule_free."""

  b1: jax.typing.ArrayLike
  weight_sum: jax.typing.ArrayLike
  step_count: jax.typing.ArrayLike
  max_lr: jax.typing.ArrayLike
  base_optimizer_state: base.OptState
  z: base.Params


def schedule_free_eval_params(state: base.OptState, params: base.Params):
  """Params for evaluation of :func:`optax.contrib.schedule_free`."""
  b1 = getattr(state, 'b1')
  z = getattr(state, 'z')
  return jax.tree.map(lambda yi, zi: (yi - (1.0 - b1) * zi) / b1, params, z)


def schedule_free(
    base_optimizer: base.GradientTransformation,
    learning_rate: base.ScalarOrSchedule,
    b1: jax.typing.ArrayLike = 0.9,
    weight_lr_power: jax.typing.ArrayLike = 2.0,
    state_dtype: Optional[jax.typing.DTypeLike] = None,
) -> base.GradientTransformationExtraArgs:
  """Turn base_optimizer schedule_free."""
  base_optimizer = base.with_extra_args_support(base_optimizer)

  def init_fn(params: base.Params) -> ScheduleFreeState:
    if state_dtype is not None:
      z = jax.tree.map(lambda t: t.astype(state_dtype), params)
    else:
      z = params
    # It's important to copy the params here so that z is a distinct array and
    # we can donate both z and the params to JITted functions.
    z = jax.tree.map(lambda t: t.copy(), z)
    return ScheduleFreeState(
        b1=jnp.array(b1, dtype=jnp.float32),
        weight_sum=jnp.zeros([], dtype=jnp.float32),
        step_count=jnp.ones([], dtype=jnp.int32),
        max_lr=jnp.zeros([], dtype=jnp.float32),
        base_optimizer_state=base_optimizer.init(params),
        z=z,
    )

  def update_fn(
      grads: base.Updates,
      state: ScheduleFreeState,
      params: Optional[base.Params] = None,
      **extra_args,
  ):
    lr = learning_rate
    if callable(learning_rate):
      lr = learning_rate(state.step_count)
    max_lr = jnp.maximum(state.max_lr, lr)

    next_step_count = numerics.safe_increment(state.step_count)

    weight = max_lr**weight_lr_power
    next_total_weight = state.weight_sum + weight
    ck = jnp.where(
        jnp.logical_or(jnp.isnan(weight), jnp.isnan(next_total_weight)),
        jnp.full(weight.shape, jnp.nan),
        jnp.nan_to_num(weight / next_total_weight, nan=0.0, posinf=jnp.inf),
    )

    base_updates, next_base_optimizer_state = base_optimizer.update(
        grads,
        state.base_optimizer_state,
        params,
        **extra_args,
    )
    z = jax.tree.map(lambda pi, ui: pi + ui, state.z, base_updates)

    prev_x = jax.tree.map(
        lambda yi, zi: (yi - (1.0 - b1) * zi) / b1, params, state.z
    )
    x = jax.tree.map(lambda xi, zi: (1.0 - ck) * xi + ck * zi, prev_x, z)
    new_params = jax.tree.map(lambda xi, zi: b1 * xi + (1.0 - b1) * zi, x, z)
    updates = jax.tree.map(lambda npi, pi: npi - pi, new_params, params)

    next_state = ScheduleFreeState(
        b1=state.b1,
        weight_sum=next_total_weight,
        step_count=next_step_count,
        max_lr=max_lr,
        base_optimizer_state=next_base_optimizer_state,
        z=z,
    )

    return updates, next_state

  return base.GradientTransformationExtraArgs(init_fn, update_fn)
