from __future__ import annotations
from typing import (
    Literal,
    Optional,
    Union,
)

import equinox as eqx
from jax.nn.initializers import Initializer, zeros
import jax.numpy as jnp
import jax.random as jrandom
from jaxtyping import Array, PRNGKeyArray

from .._misc import default_floating_dtype


class FullyLinear(eqx.Module, strict=True):
    """Performs a linear transformation for two inputs.

    This layer is useful for formulating, e.g., fully connected multi layer
    perceptrons (MLP), where the MLP input is passed as an additional input
    to each hidden layer, alongside the output of the previous layer.
    """

    weight_y: Array
    weight_z: Array
    bias: Optional[Array]
    in_features_y: Union[int, Literal["scalar"]] = eqx.field(static=True)
    in_features_z: Union[int, Literal["scalar"]] = eqx.field(static=True)
    out_features: Union[int, Literal["scalar"]] = eqx.field(static=True)
    use_bias: bool = eqx.field(static=True)

    def __init__(
        self,
        in_features_y: Union[int, Literal["scalar"]],
        in_features_z: Union[int, Literal["scalar"]],
        out_features: Union[int, Literal["scalar"]],
        weight_init: Initializer,
        bias_init: Initializer = zeros,
        use_bias: bool = True,
        dtype=None,
        *,
        key: PRNGKeyArray,
    ):
        dtype = default_floating_dtype() if dtype is None else dtype
        wykey, wzkey, bkey = jrandom.split(key, 3)
        in_features_y_ = 1 if in_features_y == "scalar" else in_features_y
        in_features_z_ = 1 if in_features_z == "scalar" else in_features_z
        out_features_ = 1 if out_features == "scalar" else out_features
        wshape_y = (out_features_, in_features_y_)
        self.weight_y = weight_init(wykey, wshape_y, dtype)
        wshape_z = (out_features_, in_features_z_)
        self.weight_z = weight_init(wzkey, wshape_z, dtype)
        bshape = (out_features_,)
        self.bias = bias_init(bkey, bshape, dtype) if use_bias else None

        self.in_features_y = in_features_y
        self.in_features_z = in_features_z
        self.out_features = out_features
        self.use_bias = use_bias

    def __call__(
        self, y: Array, z: Array, *, key: Optional[PRNGKeyArray] = None
    ) -> Array:
        if self.in_features_y == "scalar":
            if jnp.shape(y) != ():
                raise ValueError("y must have scalar shape")
            y = jnp.broadcast_to(y, (1,))
        if self.in_features_z == "scalar":
            if jnp.shape(z) != ():
                raise ValueError("z must have scalar shape")
            z = jnp.broadcast_to(z, (1,))

        x = self.weight_y @ y + self.weight_z @ z
        if self.bias is not None:
            x = x + self.bias

        if self.out_features == "scalar":
            assert jnp.shape(x) == (1,)
            x = jnp.squeeze(x)

        return x
