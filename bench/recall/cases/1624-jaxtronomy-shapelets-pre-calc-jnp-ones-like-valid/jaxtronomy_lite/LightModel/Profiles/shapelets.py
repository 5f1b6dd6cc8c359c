__author__ = "sibirrer"

from functools import partial
from jax import lax, jit, numpy as jnp
import math
import numpy as np


class Shapelets(object):
    """Class for 2d cartesian Shapelets.

    Sources:
    Refregier 2003: Shapelets: I. A Method for Image Analysis https://arxiv.org/abs/astro-ph/0105178
    """

    def __init__(
        self, interpolation=False, precalc=False, stable_cut=True, cut_scale=5
    ):
        """

        :param interpolation: boolean; False in jaxtronomy
        :param precalc: boolean; if True interprets as input (x, y) as pre-calculated
            normalized shapelets
        :param stable_cut: boolean; if True, sets the values outside of the cut to 0
        :param cut_scale: float, scaling parameter where to cut the shapelets.
        """
        # Interpolation is actually slower than calculating the hermite polynomials normally using JAX
        if interpolation:
            raise ValueError(
                "interpolation feature for Shapelets is not supported in jaxtronomy"
            )
        self._precalc = precalc
        self._stable_cut = stable_cut
        self._cut_scale = cut_scale

    @partial(jit, static_argnums=(0, 4))
    def pre_calc(self, x, y, beta, n_order, center_x, center_y):
        """Calculates the phi_n(x) and phi_n(y) for a given x-array and y-array for the
        full order in the polynomials.

        :param x: float or 1d array of x-coordinates
        :param y: float or 1d array of y-coordinates
        :param beta: shapelet scale
        :param n_order: order of shapelets
        :param center_x: shapelet center
        :param center_y: shapelet center
        :return: jnp.arrays of phi_n(x) and phi_n(y)
        """
        if n_order > 170:
            raise ValueError(f"polynomial order {n_order} too large")

        x_ = jnp.atleast_1d(x - center_x) / beta
        y_ = jnp.atleast_1d(y - center_y) / beta

        H_x = jnp.zeros((n_order + 1, len(x_)))
        H_x = H_x.at[0].set(jnp.ones_like(x_, dtype=float))
        H_x = H_x.at[1].set(2 * x_)

        H_y = jnp.zeros((n_order + 1, len(y_)))
        H_y = H_y.at[0].set(jnp.ones_like(y_, dtype=float))
        H_y = H_y.at[1].set(2 * y_)

        prefactor = jnp.zeros(n_order + 1, dtype=float)
        prefactor = prefactor.at[0].set(1.0 / (jnp.pi) ** (1.0 / 4.0))
        prefactor = prefactor.at[1].set(prefactor[0] / jnp.sqrt(2))

        exp_x = jnp.exp(-(x_**2) / 2.0)
        exp_y = jnp.exp(-(y_**2) / 2.0)

        def body_fun(n, val):
            H_x, H_y, prefactor = val

            new_Hx = 2 * x_ * H_x.at[n - 1].get() - 2 * (n - 1) * H_x.at[n - 2].get()
            H_x = H_x.at[n].set(new_Hx)

            new_Hy = 2 * y_ * H_y.at[n - 1].get() - 2 * (n - 1) * H_y.at[n - 2].get()
            H_y = H_y.at[n].set(new_Hy)

            new_prefactor = prefactor.at[n - 1].get() / jnp.sqrt(2 * n)
            prefactor = prefactor.at[n].set(new_prefactor)

            return H_x, H_y, prefactor

        H_x, H_y, prefactor = lax.fori_loop(
            2, n_order + 1, body_fun, (H_x, H_y, prefactor)
        )

        if self._stable_cut:
            cut_threshold = np.sqrt(n_order + 2) * self._cut_scale
            cut_x, cut_y = jnp.where(x_ < cut_threshold, 1, 0), jnp.where(
                y_ < cut_threshold, 1, 0
            )
        else:
            cut_x, cut_y = jnp.ones_like(x_), jnp.ones_like(y_)

        phi_x = ((H_x * cut_x * exp_x).T * prefactor).T
        phi_y = ((H_y * cut_y * exp_y).T * prefactor).T
        return phi_x, phi_y
