from abc import ABC, abstractmethod
from typing import Any, NamedTuple

import jax


class EphemeralState(NamedTuple):
    # Contains all available ephemeral quantities that might be used for constructing a sampler state.
    # Excludes the full state, as this is too large oft times.
    key: jax.Array
    live_points_collection: Any
    termination_register: Any


class AbstractSampler(ABC):

    @abstractmethod
    def _pre_process(self, ephemeral_state: EphemeralState) -> Any:
        ...

    def pre_process(self, ephemeral_state: EphemeralState) -> Any:
        return self._pre_process(ephemeral_state)

    @abstractmethod
    def _post_process(self, ephemeral_state: EphemeralState, sampler_state: Any) -> Any:
        ...

    def post_process(self, ephemeral_state: EphemeralState, sampler_state: Any) -> Any:
        return self._post_process(ephemeral_state, sampler_state)

    @abstractmethod
    def get_sample(self, key, log_L_constraint, sampler_state):
        ...
