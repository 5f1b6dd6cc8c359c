import jax.numpy as jnp
import jax.random as jr
from jaxtyping import Array, Float, PRNGKeyArray

from ._base_ic import BaseRandomICGenerator


def spatial_shape(num_spatial_dims: int, num_points: int) -> tuple:
    return (num_points,) * num_spatial_dims


class DiffusedNoise(BaseRandomICGenerator):
    num_spatial_dims: int
    domain_extent: float
    intensity: float
    zero_mean: bool

    def __init__(
        self,
        num_spatial_dims: int,
        domain_extent: float = 1.0,
        *,
        intensity=0.001,
        zero_mean: bool = False,
    ):
        self.num_spatial_dims = num_spatial_dims
        self.domain_extent = domain_extent
        self.intensity = intensity
        self.zero_mean = zero_mean

    def __call__(
        self, num_points: int, *, key: PRNGKeyArray
    ) -> Float[Array, "1 ... N"]:
        noise_shape = (1,) + spatial_shape(self.num_spatial_dims, num_points)
        noise = jr.normal(key, shape=noise_shape)

        ic = noise

        if self.zero_mean:
            ic = ic - jnp.mean(ic)

        return ic
