# -*- coding: utf-8 -*-

from jax import numpy

from .setting import *
