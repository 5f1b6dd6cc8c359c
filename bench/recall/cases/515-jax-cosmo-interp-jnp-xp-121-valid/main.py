import jax.numpy as jnp
import numpy

import jax_cosmo_lite as jc


if __name__ == "__main__":
    x = numpy.array([0.5, 1.5])
    xp = jnp.asarray(numpy.array([0., 1., 2.]))
    fp = jnp.asarray(numpy.array([0., 1., 2.]))
    print("interp:", jc.scipy.interpolate.interp(x, xp, fp).tolist())
