"""Expert actor which returns an action inferred from logged data."""

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


_EXPERT_NAME = 'expert'
_IS_SDC_FUNC = lambda state: state['is_sdc']


class WaymaxActorOutput(NamedTuple):
  actor_state: object
  action: jax.Array
  is_controlled: jax.Array


def _dynamic_slice(traj, start, size, axis=-1):
  return jax.tree_util.tree_map(
      lambda x: jax.lax.dynamic_slice_in_dim(x, start, size, axis=axis), traj
  )


def infer_expert_action(simulator_state, dynamics_model):
  """Infers an action from sim_traj[timestep] to log_traj[timestep + 1]."""
  prev_sim_traj = _dynamic_slice(
      simulator_state['sim_trajectory'], simulator_state['timestep'], 1, axis=-1
  )
  next_logged_traj = _dynamic_slice(
      simulator_state['log_trajectory'], simulator_state['timestep'] + 1, 1, axis=-1
  )
  combined_traj = jax.tree_map(
      lambda x, y: jnp.concatenate([x, y], axis=-1),
      prev_sim_traj,
      next_logged_traj,
  )
  return dynamics_model(combined_traj)


def create_expert_actor(
    dynamics_model: Callable,
    is_controlled_func: Callable = _IS_SDC_FUNC,
):
  """Creates an expert agent (a select_action function)."""

  def select_action(params, state, actor_state=None, rng=None):
    """Infers an action for the current timestep given logged state."""
    del params, actor_state, rng  # unused.
    logged_action = infer_expert_action(state, dynamics_model)
    return WaymaxActorOutput(
        actor_state=None,
        action=logged_action,
        is_controlled=is_controlled_func(state),
    )

  return select_action
