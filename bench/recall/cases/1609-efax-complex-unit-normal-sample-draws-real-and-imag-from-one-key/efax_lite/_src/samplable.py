from __future__ import annotations

from abc import abstractmethod

import jax


class Samplable:
    @abstractmethod
    def sample(self, key: jax.Array, shape: tuple[int, ...] | None = None) -> jax.Array:
        raise NotImplementedError
