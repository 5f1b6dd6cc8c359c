"""Defines the JAX-CFD module for computational fluid dynamics."""

import jax_cfd_lite.base
