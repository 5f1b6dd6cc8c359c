import functools

from flax import struct
import jax.numpy as jnp
import numpy as np

from hj_reachability_lite import boundary_conditions as _boundary_conditions
from hj_reachability_lite import sets

from typing import Any, Callable, Optional, Tuple, Union

Array = Any


@struct.dataclass
class Grid:
    """Class for representing Cartesian state grids with uniform spacing in each dimension."""
    states: Array
    domain: sets.Box
    coordinate_vectors: Tuple[Array, ...]
    spacings: Tuple[Array, ...]
    boundary_conditions: Tuple[Callable, ...] = struct.field(pytree_node=False)

    @classmethod
    def from_lattice_parameters_and_boundary_conditions(
            cls,
            domain: sets.Box,
            shape: Tuple[int, ...],
            boundary_conditions: Optional[Tuple[Callable, ...]] = None,
            periodic_dims: Optional[Union[int, Tuple[int, ...]]] = None) -> "Grid":
        ndim = len(shape)
        if boundary_conditions is None:
            if not isinstance(periodic_dims, tuple):
                periodic_dims = (periodic_dims,)
            boundary_conditions = tuple(
                _boundary_conditions.periodic if i in periodic_dims else _boundary_conditions.extrapolate_away_from_zero
                for i in range(ndim))

        coordinate_vectors, spacings = zip(
            *(jnp.linspace(l, h, n, endpoint=bc is not _boundary_conditions.periodic, retstep=True)
              for l, h, n, bc in zip(domain.lo, domain.hi, shape, boundary_conditions)))
        states = jnp.stack(jnp.meshgrid(*coordinate_vectors, indexing="ij"), -1)

        return cls(states, domain, coordinate_vectors, spacings, boundary_conditions)

    @property
    def ndim(self) -> int:
        """Returns the dimension `N` of the grid."""
        return self.states.ndim - 1

    @property
    def shape(self) -> Tuple[int, ...]:
        """Returns the shape of the grid, a tuple of `N` integers."""
        return self.states.shape[:-1]

    def interpolate(self, values, state):
        """Interpolates `values` (possibly multidimensional per node) defined over the grid at the given `state`."""
        position = (state - self.domain.lo) / jnp.array(self.spacings)
        index_lo = jnp.floor(position).astype(jnp.int32)
        index_hi = index_lo + 1
        weight_hi = position - index_lo
        weight_lo = 1 - weight_hi
        index_lo, index_hi = tuple(
            jnp.where(self._is_periodic_dim, index % np.array(self.shape), jnp.clip(index, 0, np.array(self.shape)))
            for index in (index_lo, index_hi))
        weight = functools.reduce(lambda x, y: x * y, jnp.ix_(*jnp.stack([weight_lo, weight_hi], -1)))
        return jnp.sum(
            weight[(...,) + (np.newaxis,) * (values.ndim - self.ndim)] *
            values[jnp.ix_(*jnp.stack([index_lo, index_hi], -1))], list(range(self.ndim)))

    @property
    def _is_periodic_dim(self) -> Array:
        """Returns a boolean vector indicating which dimensions (if any) are periodic."""
        return np.array([bc is _boundary_conditions.periodic for bc in self.boundary_conditions])
