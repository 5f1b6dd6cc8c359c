import numpy as np
from scipy.constants import c as lightspeed

import jax.numpy as jnp
from jax import jit, vmap
from jax import lax, ops
from jax.experimental import loops

from jax.test_util import check_grads

minus_two_pi_over_c = -2*jnp.pi/lightspeed
# define some constants
deg2rad = jnp.pi / 180.0;
arcsec2rad = deg2rad / 3600.0;
uas2rad = 1e-6 * deg2rad / 3600.0;
def radec2lm(radec, ra0=177.117828264*deg2rad, dec0=-29.9948728272*deg2rad):
  source = radec.shape[0]
  lm = jnp.empty((source, 2), radec.dtype)

  def body(s, lm):
    ra, dec = radec[s]
    delta_ra = ra - ra0
    l = jnp.cos(dec)*jnp.sin(delta_ra)
    m = jnp.sin(dec)*jnp.cos(dec0) - jnp.cos(dec)*jnp.sin(dec0)*jnp.cos(delta_ra)

    lm = ops.index_update(lm, (s, 0), l)
    lm = ops.index_update(lm, (s, 1), m)

    return lm

  return lax.fori_loop(0, source, body, lm)


if __name__ == "__main__":
    print(jit(radec2lm)(jnp.array([[3.0, -0.5], [3.1, -0.4]])))
