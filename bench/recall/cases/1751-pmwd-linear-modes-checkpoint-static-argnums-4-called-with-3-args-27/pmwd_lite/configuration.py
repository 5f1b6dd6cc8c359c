from dataclasses import dataclass, field
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=[], meta_fields=["ptcl_spacing", "ptcl_grid_shape", "float_dtype"])
@dataclass(frozen=True)
class Configuration:
    ptcl_spacing: float
    ptcl_grid_shape: tuple
    float_dtype: jnp.dtype = field(default=jnp.float32)

    @property
    def box_vol(self):
        vol = 1.0
        for n in self.ptcl_grid_shape:
            vol *= n * self.ptcl_spacing
        return vol
