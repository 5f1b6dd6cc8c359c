# flake8: noqa
"""
"""
from .stellar_age_weights import *
