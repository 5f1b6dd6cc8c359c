"""Collect all modules into the tornadox.* namespace"""

from jax import config

from . import enkf, iwp, odefilter, rv, sqrt

config.update("jax_enable_x64", True)
