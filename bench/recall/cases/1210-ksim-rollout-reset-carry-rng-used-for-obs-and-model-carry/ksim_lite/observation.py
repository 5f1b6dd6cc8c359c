"""Defines the base observation class."""

from abc import ABC, abstractmethod

from dataclasses import dataclass, field
import jax
from jax import Array
from typing import Any as PRNGKeyArray, Any as PyTree


@dataclass(frozen=True, kw_only=True)
class Observation(ABC):
    @property
    def observation_name(self) -> str:
        return self.__class__.__name__


@dataclass(frozen=True, kw_only=True)
class StatefulObservation(Observation):
    @abstractmethod
    def initial_carry(self, physics_state: PyTree, rng: PRNGKeyArray) -> PyTree:
        """Initial carry state for the observation.

        Args:
            physics_state: The initial physics state.
            rng: A PRNGKeyArray to use for the observation.
        """


@dataclass(frozen=True, kw_only=True)
class DelayedObservation(StatefulObservation):
    """An observation delayed by a random number of steps, drawn at reset."""

    max_delay: int = field(default=5)

    def initial_carry(self, physics_state: PyTree, rng: PRNGKeyArray) -> Array:
        return jax.random.randint(rng, (), 0, self.max_delay)
