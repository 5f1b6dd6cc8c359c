# flake8: noqa
"""
"""
from .flat_wcdm import *
from .flat_wcdm import PLANCK15
from .defaults import DEFAULT_COSMOLOGY, TODAY
