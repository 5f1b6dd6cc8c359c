"""Surface Quasi-Geostrophic turbulence (reduced)."""

import logging

import numpy as np
import jax.numpy as jnp
from jax.numpy.fft import rfft2, irfft2
from jax.config import config
from functools import partial

# Set to enable 64bit floats in Jax
config.update('jax_enable_x64', True)


class SQGTurb:
    """Class to set up SQG turbulence model and generate data"""

    def __init__(self, N=16, L=20.0e6, H=10.0e3, store_as_jax=False):
        self.N = N
        self.L = L
        self.H = H
        self.store_as_jax = store_as_jax

    def generate(self, n_steps=2):
        pv = jnp.asarray(np.random.default_rng(0).normal(size=(2, self.N, self.N)))
        for _ in range(n_steps):
            pv = irfft2(rfft2(pv) * 0.99)
        return pv
