import math
from typing import Optional

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jrandom
import numpy as np
from equinox import Module, field
from jaxtyping import Array, PRNGKeyArray


class PhysicsConv(Module, strict=True):
    """General N-dimensional convolution."""

    num_spatial_dims: int = field(static=True)
    weight: Array
    bias: Optional[Array]
    in_channels: int = field(static=True)
    out_channels: int = field(static=True)
    kernel_size: tuple[int, ...] = field(static=True)
    use_bias: bool = field(static=True)
    boundary_mode: str = field(static=True)

    def __init__(
        self,
        num_spatial_dims: int,
        in_channels: int,
        out_channels: int,
        kernel_size: int,
        stride: int = 1,
        dilation: int = 1,
        use_bias: bool = True,
        *,
        key: PRNGKeyArray,
        boundary_mode: str,
        zero_bias_init: bool = False,
    ):
        wkey, bkey = jrandom.split(key, 2)

        kernel_size = (kernel_size,) * num_spatial_dims

        lim = 1 / np.sqrt(in_channels * math.prod(kernel_size))
        self.weight = jrandom.uniform(
            wkey,
            (out_channels, in_channels) + kernel_size,
            minval=-lim,
            maxval=lim,
        )
        if use_bias:
            if zero_bias_init:
                self.bias = jnp.zeros((out_channels,) + (1,) * num_spatial_dims)
            else:
                self.bias = jrandom.uniform(
                    bkey,
                    (out_channels,) + (1,) * num_spatial_dims,
                    minval=-lim,
                    maxval=lim,
                )
        else:
            self.bias = None

        self.num_spatial_dims = num_spatial_dims
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.use_bias = use_bias
        self.boundary_mode = boundary_mode

    def __call__(self, x: Array) -> Array:
        pad = [(0, 0)] + [(k // 2, k // 2) for k in self.kernel_size]
        x = jnp.pad(x, pad, mode="wrap" if self.boundary_mode == "periodic" else "constant")
        x = jax.lax.conv_general_dilated(x[None], self.weight, (1,) * self.num_spatial_dims, "VALID")[0]
        if self.use_bias:
            x = x + self.bias
        return x
