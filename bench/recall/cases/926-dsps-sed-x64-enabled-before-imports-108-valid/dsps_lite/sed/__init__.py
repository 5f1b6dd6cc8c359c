# flake8: noqa
""" """
import jax

jax.config.update("jax_enable_x64", True)

from .stellar_age_weights import *
