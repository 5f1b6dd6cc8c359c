import jax
import jax.numpy as jnp

from .setup import convolve_stucture_factor_with_instrument


class PlasmaState:
    def __init__(self, T_e):
        self.T_e = T_e

    def probe(self, setup):
        return _probe(self.T_e, setup)


@jax.jit
def _probe(T_e, setup):
    shift = setup.measured_energy - setup.energy
    Sfac = jnp.exp(-(shift**2) / (2 * T_e**2))
    return convolve_stucture_factor_with_instrument(Sfac, setup)
