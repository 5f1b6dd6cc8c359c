"""Classes that specify how boundary conditions are applied to arrays."""

from typing import Optional, Sequence, Tuple, Union

import jax.numpy as jnp
from jax_cfd_lite.base import grids
import numpy as np

GridArray = grids.Grid
Array = Union[np.ndarray, jnp.DeviceArray]


class BCType:
  PERIODIC = 'periodic'
  DIRICHLET = 'dirichlet'
  NEUMANN = 'neumann'
