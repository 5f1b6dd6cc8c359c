"""Piecewise trend effects (reduced to the changepoint prior vectors)."""

from typing import Tuple

import jax.numpy as jnp
import numpy as np


class PiecewiseLinearTrend:
    """Piecewise Linear Trend model.

    This model assumes that the trend is piecewise linear, with changepoints
    at regular intervals. The initial values (global rate and global offset)
    are suggested from the time series data.

    Parameters
    ----------
    n_changepoint_per_series : list of int
        The number of changepoints of each series.
    changepoint_prior_scale : float or list of float
        The prior scale for the changepoints.
    """

    def __init__(self, n_changepoint_per_series, changepoint_prior_scale=0.001):
        self.n_changepoint_per_series = n_changepoint_per_series
        self.changepoint_prior_scale = changepoint_prior_scale

    def _get_changepoint_prior_vectors(
        self,
        global_rates: jnp.array,
    ) -> Tuple[jnp.array, jnp.array]:
        """
        Return the prior vectors for the changepoint coefficients.

        Parameters
        ----------
        global_rates: jnp.array
            The global rates for each series.

        Returns
        -------
        Tuple[jnp.array, jnp.array]
            A tuple containing the changepoint prior location vector and the
            changepoint prior scale vector.
        """
        n_series = len(self.n_changepoint_per_series)

        def zeros_with_first_value(size, first_value):
            x = jnp.zeros(size)
            x = x.at[0].set(first_value)
            return x

        changepoint_prior_scale_vector = np.concatenate(
            [
                np.ones(n_changepoint) * cur_changepoint_prior_scale
                for n_changepoint, cur_changepoint_prior_scale in zip(
                    self.n_changepoint_per_series,
                    _to_list_if_scalar(self.changepoint_prior_scale, n_series),
                )
            ]
        )

        changepoint_prior_loc_vector = np.concatenate(
            [
                zeros_with_first_value(n_changepoint, estimated_global_rate)
                for n_changepoint, estimated_global_rate in zip(
                    self.n_changepoint_per_series, global_rates
                )
            ]
        )

        return jnp.array(changepoint_prior_loc_vector), jnp.array(
            changepoint_prior_scale_vector
        )


def _to_list_if_scalar(x, size=1):
    """
    Convert a scalar value to a list of the same value repeated `size` times.

    Parameters
    ----------
    x: scalar or array-like
        The input value to be converted.
    size: int, optional
        The number of times to repeat the value in the list. Default is 1.

    Returns
    -------
    list
        A list containing the input value repeated `size` times if `x` is
        a scalar, otherwise returns `x` unchanged.
    """
    if np.isscalar(x):
        return [x] * size
    return x
