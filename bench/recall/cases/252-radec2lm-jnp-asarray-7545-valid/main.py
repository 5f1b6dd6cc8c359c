import numpy as np

import jax.numpy as jnp
from jax import lax

# define some constants
deg2rad = jnp.pi / 180.0;
def radec2lm(radec, ra0=177.117828264*deg2rad, dec0=-29.9948728272*deg2rad):
  source = radec.shape[0]
  lm = jnp.empty((source, 2), radec.dtype)

  def body(s, lm):
    ra, dec = radec[s]
    delta_ra = ra - ra0
    l = jnp.cos(dec)*jnp.sin(delta_ra)
    m = jnp.sin(dec)*jnp.cos(dec0) - jnp.cos(dec)*jnp.sin(dec0)*jnp.cos(delta_ra)

    lm = lm.at[s, 0].set(l)
    lm = lm.at[s, 1].set(m)

    return lm

  return lax.fori_loop(0, source, body, lm)


def model(params):
  radec = jnp.asarray(params["radec"])
  return radec2lm(radec).sum()


if __name__ == "__main__":
    params = {"radec": np.array([[3.0, -0.5], [3.1, -0.4]])}
    print(model(params))
