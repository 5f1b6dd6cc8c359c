from jax_cosmo_lite.scipy import interpolate
