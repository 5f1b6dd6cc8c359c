"""Array backend selection (numpy by default, jax when forced)."""

import numpy

_BACKEND = "numpy"


def force_backend(name):
    global _BACKEND
    _BACKEND = name


def xp():
    if _BACKEND == "jax":
        import jax.numpy as jnp

        return jnp
    return numpy
