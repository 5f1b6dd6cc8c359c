# Defines the data noise model
# 
# Copyright (c) 2021, herculens developers and contributors
# Copyright (c) 2018, Simon Birrer & lenstronomy contributors
# based on the Data module from lenstronomy (version 1.9.3)

__author__ = 'sibirrer', 'austinpeel', 'aymgal'


import numpy as np
import jax.numpy as jnp
from jax import random

from herculens_lite.Util import image_util


class Noise(object):
    """
    class that deals with noise properties of imaging data
    """

    def __init__(self, nx, ny, exposure_time=None, background_rms=None):
        """

        :param exposure_time: int or array of size the data; exposure time
        (common for all pixels or individually for each individual pixel)
        :param background_rms: root-mean-square value of Gaussian background noise
        """
        self._background_rms = float(background_rms)
        self._exp_map = exposure_time
        self._nx, self._ny = nx, ny

    def realisation(self, model, prng_key, add_gaussian=True, add_poisson=True):
        noise_real = 0.
        key1, key2 = random.split(prng_key)
        if add_poisson and self._exp_map is not None:
            noise_real += image_util.add_poisson(model, self._exp_map, key1)
        if add_gaussian:
            noise_real += image_util.add_background(model, self._background_rms, key2)
        return noise_real
