from functools import partial
from jax import jit, numpy as jnp

from jaxtronomy_lite.PointSource.Types.lensed_position import LensedPositions

__all__ = ["PointSource"]


class PointSource(object):
    def __init__(
        self,
        point_source_type_list,
        lens_model=None,
        magnification_limit=None,
        kwargs_lens_eqn_solver=None,
    ):
        """

        :param point_source_type_list: list of point source types
        :param lens_model: instance of the LensModel() class
        """
        self._lens_model = lens_model
        self.point_source_type_list = point_source_type_list
        self._point_source_list = []
        for model in point_source_type_list:
            if model == "LENSED_POSITION":
                self._point_source_list.append(LensedPositions())
            else:
                raise ValueError("Point-source model %s not available" % model)
        self._magnification_limit = magnification_limit
        self._kwargs_lens_eqn_solver = kwargs_lens_eqn_solver

    @partial(jit, static_argnums=(0, 3, 5))
    def image_position(
        self,
        kwargs_ps,
        kwargs_lens,
        k=None,
        original_position=False,
        additional_images=False,
    ):
        """Image positions as observed on the sky of the point sources.

        :param kwargs_ps: point source parameter keyword argument list
        :param kwargs_lens: lens model keyword argument list
        :param k: None or int; only returns a subset of the model predictions
        :return: list of: list of image positions per point source model component
        """
        x_image_list = []
        y_image_list = []
        for i, model in enumerate(self._point_source_list):
            if k is None or k == i:
                kwargs = kwargs_ps[i]
                x_image, y_image = model.image_position(
                    kwargs,
                    kwargs_lens,
                    magnification_limit=self._magnification_limit,
                    kwargs_lens_eqn_solver=self._kwargs_lens_eqn_solver,
                    additional_images=additional_images,
                )
                x_image_list.append(x_image)
                y_image_list.append(y_image)
        return x_image_list, y_image_list

    @partial(jit, static_argnums=(0, 3, 4))
    def point_source_list(self, kwargs_ps, kwargs_lens, k=None, with_amp=True):
        """Returns the image coordinates and image amplitudes of all point sources in a
        single array (image amplitudes removed: with_amp=False only).

        :param kwargs_ps: point source keyword argument list
        :param kwargs_lens: lens model keyword argument list
        :param k: None or int; selects a subset of the point source models in the return
        :return: ra_array, dec_array, amp_array
        """
        # we make sure we do not re-compute the image positions twice when evaluating position and their amplitudes
        ra_list, dec_list = self.image_position(kwargs_ps, kwargs_lens, k=k)

        ra_array, dec_array, amp_array = [], [], []
        for i in range(len(ra_list)):
            for j in range(len(ra_list[i])):
                ra_array.append(ra_list[i][j])
                dec_array.append(dec_list[i][j])
                amp_array.append(1.0)
        return jnp.array(ra_array), jnp.array(dec_array), jnp.array(amp_array)
