"""Model of halo population assembly calibrated to Rockstar halos."""
from jax import jit as jjit
from jax import numpy as jnp
from jax import ops as jops
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
    cho = jops.index_update(cho, jops.index[0, 0], 10 ** log10_lge_lge)
    cho = jops.index_update(cho, jops.index[1, 1], 10 ** log10_lgl_lgl)
    cho = jops.index_update(cho, jops.index[2, 2], 10 ** log10_lgtc_lgtc)
    cho = jops.index_update(cho, jops.index[1, 0], lge_lgl)
    cho = jops.index_update(cho, jops.index[2, 0], lge_lgtc)
    cho = jops.index_update(cho, jops.index[2, 1], lgl_lgtc)
    cov = jnp.dot(cho, cho.T)
    return cov


_get_cov_vmap = jjit(vmap(_get_cov_scalar, in_axes=(0, 0, 0, 0, 0, 0)))
