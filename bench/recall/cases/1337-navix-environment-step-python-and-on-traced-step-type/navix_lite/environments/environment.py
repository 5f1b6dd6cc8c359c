from __future__ import annotations

import abc
from typing import Any, Dict

import jax
import jax.numpy as jnp
from jax import Array
from flax import struct


class StepType:
    TRANSITION = jnp.asarray(0)
    """Discount > 0, episode continues"""
    TRUNCATION = jnp.asarray(1)
    """Discount > 0, episode ends"""
    TERMINATION = jnp.asarray(2)
    """Discount == 0, episode ends"""


class State(struct.PyTreeNode):
    key: Array
    position: Array
    cache: Any = None


class Timestep(struct.PyTreeNode):
    t: Array
    """The number of timesteps elapsed from the last reset of the environment"""
    observation: Array
    """The observation corresponding to the current state (for POMDPs)"""
    action: Array
    """The action taken by the agent at the current timestep a_t = $\\pi(s_t)$, where $s_t$ is `state`"""
    reward: Array
    """The reward $r_{t=1}$ received by the agent after taking action $a_t$"""
    step_type: Array
    """The type of the current timestep"""
    state: State
    """The true state of the MDP, $s_t$ before taking action `action`"""
    info: Dict[str, Any] = struct.field(default_factory=dict)
    """Additional information about the environment. Useful for accumulations (e.g. returns)"""


class Environment(struct.PyTreeNode):
    height: int = struct.field(pytree_node=False)
    width: int = struct.field(pytree_node=False)
    max_steps: int = struct.field(pytree_node=False)
    disable_autoreset: bool = struct.field(pytree_node=False, default=False)

    @abc.abstractmethod
    def reset(self, key: Array, cache=None) -> Timestep:
        raise NotImplementedError()

    def step(self, timestep: Timestep, action: Array) -> Timestep:
        # autoreset if necessary: 0 = transition, 1 = truncation, 2 = termination
        should_reset = timestep.step_type > 0
        return jax.lax.cond(
            should_reset and not self.disable_autoreset,
            lambda timestep: self.reset(timestep.state.key, timestep.state.cache),
            lambda timestep: self._step(timestep, action),
            timestep,
        )

    @abc.abstractmethod
    def _step(self, timestep: Timestep, action: Array) -> Timestep:
        raise NotImplementedError()
