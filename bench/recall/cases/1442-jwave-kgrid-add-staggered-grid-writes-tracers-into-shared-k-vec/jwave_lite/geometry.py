from jax import numpy as jnp
from functools import reduce
import jax
from typing import NamedTuple, Tuple, List
import numpy as np
from enum import IntEnum


class Staggered(IntEnum):
    r"""Staggering flags as enumerated constants."""
    NONE = 0
    FORWARD = 1
    BACKWARD = 2


class kGrid(NamedTuple):
    r"""
    A reference grid object for spatial and spectral calculations
    """

    N: Tuple[int]
    dx: Tuple[float]
    k_vec: List[List[jnp.ndarray]]
    cell_area: float
    k_with_kspaceop: List[jnp.ndarray]
    space_axis: List[jnp.ndarray]
    k_magnitude: jnp.ndarray

    @property
    def has_staggered_grid(self):
        return (self.k_vec[Staggered.BACKWARD] is not None) and (
            self.k_vec[Staggered.FORWARD] is not None
        )

    @staticmethod
    def make_grid(N, dx):
        r"""Constructs a `kGrid` object."""

        def spatial_axis(n, delta):
            if n % 2 == 0:
                return jnp.arange(0, n) * delta - delta * n / 2
            else:
                return jnp.arange(0, n) * delta - delta * (n - 1) / 2

        axis = [spatial_axis(n, delta) for n, delta in zip(N, dx)]

        def k_axis(n, d):
            return jnp.fft.fftfreq(n, d) * 2 * jnp.pi

        k_vec_plain = [k_axis(n, delta) for n, delta in zip(N, dx)]
        k_vec = [None] * 3
        k_vec[Staggered.NONE] = k_vec_plain

        cell_area = reduce(lambda x, y: x * y, dx)

        return kGrid(
            N=N,
            dx=dx,
            k_vec=k_vec,
            cell_area=cell_area,
            k_with_kspaceop=None,
            space_axis=axis,
            k_magnitude=None,
        )

    def add_staggered_grid(self):
        r"""Produces a copy of the grid with the staggered vectors field set.
        Returns itself if a `k_staggered` grid is already defined.
        """
        if not self.has_staggered_grid:
            k_vec = self.k_vec
            k_vec[Staggered.BACKWARD] = list(
                map(
                    lambda x: x[0] * jnp.exp(1j * x[0] * x[1] / 2),
                    zip(self.k_vec[Staggered.NONE], self.dx),
                )
            )
            k_vec[Staggered.FORWARD] = list(
                map(
                    lambda x: x[0] * jnp.exp(-1j * x[0] * x[1] / 2),
                    zip(self.k_vec[Staggered.NONE], self.dx),
                )
            )
            return self._replace(k_vec=k_vec)
        else:
            return self
