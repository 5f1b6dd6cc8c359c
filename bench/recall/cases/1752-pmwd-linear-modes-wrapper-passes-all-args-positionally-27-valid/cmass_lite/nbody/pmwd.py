import jax.numpy as jnp

from pmwd_lite import Configuration, Cosmology, white_noise, linear_modes


def configure_pmwd(L, N):
    pmconf = Configuration(ptcl_spacing=L / N, ptcl_grid_shape=(N,) * 3)
    pmcosmo = Cosmology(A_s_1e9=jnp.array(2.1), n_s=jnp.array(0.96))
    return pmconf, pmcosmo


def run_density(wn, pmconf, pmcosmo):
    ic = linear_modes(wn, pmcosmo, pmconf)
    return ic
