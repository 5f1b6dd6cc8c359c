__author__ = "sibirrer"

# this file contains a class which describes the surface brightness of the light models
# used for the linear solver only

from functools import partial
from jax import jit, numpy as jnp
import numpy as np


class LinearBasis(object):
    """Class to handle source and lens light models (profile functions removed)."""

    def __init__(self, light_model_list):
        self.profile_type_list = light_model_list

    @partial(jit, static_argnums=(0, 2), inline=True)
    def update_linear(self, param, i, kwargs_list):
        """

        :param param: array of linear amplitude coefficients in the order of the linear minimization of the ImSim module
        :param i: index of first coefficient to start reading out the linear parameters associated with the model
         components of this class
        :param kwargs_list: list of keyword arguments of the model components
        :return: kwargs list with over-written or added 'amp' parameters according to the coefficients in param
        """
        for k, model in enumerate(self.profile_type_list):
            if model in [
                "SERSIC",
                "SERSIC_ELLIPSE",
                "GAUSSIAN",
                "GAUSSIAN_ELLIPSE",
            ]:
                kwargs_list[k]["amp"] = param[i]
                i += 1
            elif model in ["MULTI_GAUSSIAN", "MULTI_GAUSSIAN_ELLIPSE"]:
                num_param = len(kwargs_list[k]["sigma"])
                kwargs_list[k]["amp"] = param[i : i + num_param]
                i += num_param
            else:
                raise ValueError("model type %s not valid!" % model)
        return kwargs_list, i
