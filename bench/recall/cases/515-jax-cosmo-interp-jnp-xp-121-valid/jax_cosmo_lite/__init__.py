from jax_cosmo_lite import scipy
