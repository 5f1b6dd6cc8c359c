"""Model of halo population assembly calibrated to Rockstar halos."""
from jax import jit as jjit
from jax import numpy as jnp
from jax import vmap


def _get_cov_scalar(
    log10_lge_lge,
    log10_lgl_lgl,
    log10_lgtc_lgtc,
    lge_lgl,
    lge_lgtc,
    lgl_lgtc,
):
    cho = jnp.zeros((3, 3)).astype("f4")
    cho = cho.at[(0, 0)].set(10 ** log10_lge_lge)
    cho = cho.at[(1, 1)].set(10 ** log10_lgl_lgl)
    cho = cho.at[(2, 2)].set(10 ** log10_lgtc_lgtc)
    cho = cho.at[(1, 0)].set(lge_lgl)
    cho = cho.at[(2, 0)].set(lge_lgtc)
    cho = cho.at[(2, 1)].set(lgl_lgtc)
    cov = jnp.dot(cho, cho.T)
    return cov


_get_cov_vmap = jjit(vmap(_get_cov_scalar, in_axes=(0, 0, 0, 0, 0, 0)))
