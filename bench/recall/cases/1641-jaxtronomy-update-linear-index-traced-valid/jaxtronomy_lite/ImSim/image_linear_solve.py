from functools import partial
from jax import jit

from jaxtronomy_lite.LightModel.linear_basis import LinearBasis

__all__ = ["ImageLinearFit"]


class ImageLinearFit(object):
    """Linear solver for source and lens light amplitudes (the response matrix and
    image numerics removed)."""

    def __init__(self, source_model_list, lens_light_model_list):
        self.SourceModel = LinearBasis(source_model_list)
        self.LensLightModel = LinearBasis(lens_light_model_list)

    @partial(jit, static_argnums=(0,))
    def update_linear_kwargs(
        self, param, kwargs_lens, kwargs_source, kwargs_lens_light, kwargs_ps
    ):
        """Links linear parameters to kwargs arguments.

        :param param: linear parameter vector corresponding to the response matrix
        :return: updated list of kwargs with linear parameter values
        """
        i = 0
        kwargs_source, i = self.SourceModel.update_linear(
            param, i, kwargs_list=kwargs_source
        )
        kwargs_lens_light, i = self.LensLightModel.update_linear(
            param, i, kwargs_list=kwargs_lens_light
        )
        return kwargs_lens, kwargs_source, kwargs_lens_light, kwargs_ps
