from abc import ABC, abstractmethod

import equinox as eqx
from jaxtyping import Array, Float, PRNGKeyArray


class BaseIC(eqx.Module, ABC):
    @abstractmethod
    def __call__(self, x: Float[Array, "D ... N"]) -> Float[Array, "1 ... N"]:
        """
        Evaluate the initial condition.
        """
        pass


class BaseRandomICGenerator(eqx.Module):
    num_spatial_dims: int
    domain_extent: float
    indexing: str = "ij"

    def gen_ic_fun(self, num_points: int, *, key: PRNGKeyArray) -> BaseIC:
        raise NotImplementedError(
            "This random ic generator cannot represent its initial condition as a function. Directly evaluate it."
        )
