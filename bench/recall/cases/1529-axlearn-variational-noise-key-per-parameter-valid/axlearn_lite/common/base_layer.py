from typing import Any

from axlearn_lite.common.config import Configurable

Tensor = Any
NestedTensor = Any


class ParameterNoise(Configurable):
    """An interface for applying parameter noise."""

    def apply(self, prng_key: Tensor, params: NestedTensor) -> NestedTensor:
        """To be implemented by subclasses."""
        raise NotImplementedError(self)
