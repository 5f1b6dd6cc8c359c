from functools import partial
from jax import jit, numpy as jnp


__all__ = ["PointSource"]


class PointSource(object):
    def __init__(
        self,
        point_source_type_list,
        lens_model=None,
        index_lens_model_list=None,
        point_source_frame_list=None,
    ):
        self.point_source_type_list = point_source_type_list
        self._lens_model = lens_model
        self._index_lens_model_list = index_lens_model_list
        self._point_source_frame_list = point_source_frame_list

    def k_list(self, k):
        """

        :param k: index of point source model
        :return: list of lengths of images with corresponding lens models in the frame (or None if not multi-frame)
        """
        if self._index_lens_model_list is not None:
            k_list = []
            for point_source_frame in self._point_source_frame_list[k]:
                k_list.append(self._index_lens_model_list[point_source_frame])
        else:
            k_list = None
        return k_list

    @partial(jit, static_argnums=0)
    def source_position(self, kwargs_ps, kwargs_lens):
        """Intrinsic source positions of the point sources."""
        x_source_list = []
        y_source_list = []
        for kwargs in kwargs_ps:
            x_source, y_source = self._lens_model.ray_shooting(
                kwargs["ra_image"][0], kwargs["dec_image"][0], kwargs_lens
            )
            x_source_list.append(x_source)
            y_source_list.append(y_source)
        return x_source_list, y_source_list
