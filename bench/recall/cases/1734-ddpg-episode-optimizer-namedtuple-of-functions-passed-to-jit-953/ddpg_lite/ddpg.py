from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from .optim import Optimizer


class LoopState(NamedTuple):
  step: Any
  opt_state: Any


def critic_loss(params, obs):
  return jnp.sum((obs @ params["w"]) ** 2)


def ddpg_episode(
    optimizer: Optimizer,
    loop_state: LoopState,
    obs,
) -> LoopState:
  params = optimizer.get(loop_state.opt_state)
  g = jax.grad(critic_loss)(params, obs)
  opt_state = optimizer.update(loop_state.step, g, loop_state.opt_state)
  return LoopState(loop_state.step + 1, opt_state)
