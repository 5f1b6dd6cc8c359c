# Utility functions
# 
# Copyright (c) 2021, herculens developers and contributors
# Copyright (c) 2018, Simon Birrer & lenstronomy contributors
# based on the Util module from lenstronomy (version 1.9.3)

__author__ = 'sibirrer', 'dangilman', 'aymgal'

import numpy as np
from jax import random
import jax.numpy as jnp


def add_background(image, sigma_bkd, seed):
    """
    adds background noise to image
    :param image: pixel values of image
    :param sigma_bkd: background noise (sigma)
    :return: a realisation of Gaussian noise of the same size as image
    """
    background = random.normal(seed, shape=np.shape(image)) * sigma_bkd
    # without JAX:
    # nx, ny = 
    # background = np.random.randn(*image.shape) * sigma_bkd
    return background

def add_poisson(image, exp_time, seed):
    """
    adds a poison (or Gaussian) distributed noise with mean given by surface brightness
    :param image: pixel values (photon counts per unit exposure time)
    :param exp_time: exposure time
    :return: Poisson noise realization of input image
    """
    """
    adds a poison (or Gaussian) distributed noise with mean given by surface brightness
    """
    sigma = jnp.sqrt(jnp.abs(image) / exp_time) # Gaussian approximation for Poisson distribution, normalized to exposure time
    poisson = random.normal(seed, shape=jnp.shape(image)) * sigma
    # without JAX:
    # sigma = np.sqrt(np.abs(image) / exp_time) # Gaussian approximation for Poisson distribution, normalized to exposure time
    # poisson = np.random.randn(*image.shape) * sigma
    return poisson

