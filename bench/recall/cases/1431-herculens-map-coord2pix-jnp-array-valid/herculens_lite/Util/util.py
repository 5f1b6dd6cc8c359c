# Utility functions
# 
# Copyright (c) 2021, herculens developers and contributors
# Copyright (c) 2018, Simon Birrer & lenstronomy contributors
# based on the Util module from lenstronomy (version 1.9.3)

__author__ = 'sibirrer', 'austinpeel', 'aymgal'


import math
import numpy as np
import jax.numpy as jnp
import json
import re


def rotate(xcoords, ycoords, angle):
    """Rotate points about the origin by an angle."""
    new_x = xcoords * jnp.cos(angle) + ycoords * jnp.sin(angle)
    new_y = -xcoords * jnp.sin(angle) + ycoords * jnp.cos(angle)
    return new_x, new_y

def map_coord2pix(ra, dec, x_0, y_0, M):
    """Perform a linear transformation between two coordinate systems.

    Mainly used to transform angular into pixel coordinates in an image.
    :param ra: ra coordinates
    :param dec: dec coordinates
    :param x_0: pixel value in x-axis of ra,dec = 0,0
    :param y_0: pixel value in y-axis of ra,dec = 0,0
    :param M: 2x2 matrix to transform angular to pixel coordinates
    :return: transformed coordinate systems of input ra and dec
    """
    #x, y = M.dot(np.array([ra, dec]))
    x, y = jnp.array(M).dot(jnp.array([ra, dec]))
    return x + x_0, y + y_0

