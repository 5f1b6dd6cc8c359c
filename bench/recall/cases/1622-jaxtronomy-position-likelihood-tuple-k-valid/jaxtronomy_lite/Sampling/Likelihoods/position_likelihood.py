from jax import numpy as jnp

__all__ = ["PositionLikelihood"]


class PositionLikelihood(object):
    """Likelihood of positions of multiply imaged point sources."""

    def __init__(self, point_source_class):
        self._pointSource = point_source_class
        self._lensModel = point_source_class._lens_model

    def source_position_likelihood(
        self,
        kwargs_lens,
        kwargs_ps,
        sigma,
    ):
        """Computes a likelihood/punishing factor of how well the source positions of
        multiple images match given the image position and a lens model.
        """
        if len(kwargs_ps) < 1:
            return 0
        logL = 0
        source_x, source_y = self._pointSource.source_position(kwargs_ps, kwargs_lens)

        for k in range(len(kwargs_ps)):
            if (
                "ra_image" in kwargs_ps[k]
                and self._pointSource.point_source_type_list[k] == "LENSED_POSITION"
            ):
                x_image = kwargs_ps[k]["ra_image"]
                y_image = kwargs_ps[k]["dec_image"]
                # calculating the individual source positions from the image positions
                k_list = self._pointSource.k_list(k)
                for i in range(len(x_image)):
                    if k_list is not None:
                        k_lens = tuple(k_list[i])
                    else:
                        k_lens = None
                    x_source_i, y_source_i = self._lensModel.ray_shooting(
                        x_image[i], y_image[i], kwargs_lens, k=k_lens
                    )
                    delta = jnp.array(
                        [source_x[k] - x_source_i, source_y[k] - y_source_i],
                        dtype=float,
                    )
                    logL = logL - delta.T.dot(delta) / sigma**2 / 2
        return logL
