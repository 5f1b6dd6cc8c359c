"""
This submodule is dedicated to handling the setup configuration for the
calculation of the synthetic spectra.
"""

from collections.abc import Callable

import jax
import jax.numpy as jnp


class Setup:

    def __init__(
        self,
        scattering_angle,
        energy,
        measured_energy,
        instrument: Callable,
        correct_k_dispersion: bool = True,
        frc_exponent: float = 0.0,
    ):
        self.scattering_angle = scattering_angle
        self.energy = energy
        self.measured_energy = measured_energy
        self.instrument: Callable = jax.tree_util.Partial(instrument)
        self.correct_k_dispersion: bool = correct_k_dispersion
        self.frc_exponent: float = frc_exponent

    # The following is required to jit a setup
    def _tree_flatten(self):
        children = (
            self.scattering_angle,
            self.energy,
            self.measured_energy,
            self.instrument,
            self.frc_exponent,
        )
        aux_data = (self.correct_k_dispersion,)  # static values
        return (children, aux_data)

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
        obj = object.__new__(Setup)
        (
            obj.scattering_angle,
            obj.energy,
            obj.measured_energy,
            obj.instrument,
            obj.frc_exponent,
        ) = children
        (obj.correct_k_dispersion,) = aux_data
        return obj


def convolve_stucture_factor_with_instrument(Sfac, setup):
    conv_grid = setup.measured_energy - jnp.mean(setup.measured_energy)
    conv_grid += jnp.min(jnp.abs(conv_grid))
    return jnp.convolve(Sfac, setup.instrument(conv_grid), mode="same") * jnp.diff(setup.measured_energy)[0]


jax.tree_util.register_pytree_node(
    Setup,
    Setup._tree_flatten,
    Setup._tree_unflatten,
)
