"""Defines a standard task interface for training reinforcement learning agents."""

from abc import ABC, abstractmethod
from collections.abc import Collection
from functools import partial

import jax
import jax.numpy as jnp
from typing import Any as PRNGKeyArray, Any as PyTree

from ksim_lite.observation import Observation, StatefulObservation


def get_initial_obs_carry(
    rng: PRNGKeyArray,
    physics_state: PyTree,
    observations: Collection[Observation],
) -> dict[str, PyTree]:
    """Get the initial observation carry."""
    rngs = jax.random.split(rng, len(observations))
    return {
        obs.observation_name: (
            obs.initial_carry(physics_state, rng) if isinstance(obs, StatefulObservation) else None
        )
        for obs, rng in zip(observations, rngs, strict=True)
    }


class RLTask(ABC):
    def __init__(self, observations: Collection[Observation]) -> None:
        self.observations = tuple(observations)

    @abstractmethod
    def get_initial_model_carry(self, rng: PRNGKeyArray) -> PyTree | None:
        """Returns the initial carry for the model.

        Args:
            rng: The random key to use.

        Returns:
            An arbitrary PyTree, representing any carry parameters that the
            model needs.
        """

    @partial(jax.jit, static_argnames=["self"])
    def _get_step_env_state(
        self,
        terminated: jax.Array,
        physics_state: PyTree,
        obs_carry: dict[str, PyTree],
        model_carry: PyTree,
        rng: PRNGKeyArray,
    ) -> tuple[dict[str, PyTree], PyTree, PRNGKeyArray]:
        cmd_rng, carry_rng, reset_rng, next_rng = jax.random.split(rng, 4)

        next_obs_carry = jax.lax.cond(
            terminated,
            lambda: get_initial_obs_carry(
                rng=carry_rng,
                physics_state=physics_state,
                observations=self.observations,
            ),
            lambda: obs_carry,
        )

        next_model_carry = jax.lax.cond(
            terminated,
            lambda: self.get_initial_model_carry(carry_rng),
            lambda: model_carry,
        )

        return next_obs_carry, next_model_carry, next_rng
