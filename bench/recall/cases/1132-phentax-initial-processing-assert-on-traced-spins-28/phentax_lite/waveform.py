"""
IMRPhenomTHM interface class for waveform generation (reduced).
"""

from typing import Optional

import jax
import jax.numpy as jnp


class IMRPhenomTHM:
    def __init__(self, T: float = 3600.0):
        self.T = T

    def _process_parameters(self, m1, m2, chi1z, chi2z):
        total_mass = m1 + m2
        eta = m1 * m2 / total_mass ** 2
        chi_eff = (m1 * chi1z + m2 * chi2z) / total_mass
        return {"total_mass": total_mass, "eta": eta, "chi_eff": chi_eff}

    def get_time_grids(self, wf_params, num_steps):
        times = jnp.arange(num_steps) / wf_params["total_mass"]
        return times, jnp.ones(num_steps, dtype=bool)

    def initial_processing(self, m1, m2, chi1z, chi2z, delta_t=15.0, T: Optional[float] = None):
        """Compute the waveform parameters and the time grid."""

        # throw an error if any of the two spins is larger than 1
        assert jnp.all(
            jnp.abs(jnp.atleast_1d(chi1z)) <= 1
        ), "Spin must be between -1 and 1"
        assert jnp.all(
            jnp.abs(jnp.atleast_1d(chi2z)) <= 1
        ), "Spin must be between -1 and 1"

        wf_params = self._process_parameters(
            m1,
            m2,
            chi1z,
            chi2z,
        )

        if T is None:
            T = self.T

        num_steps = int(jnp.ceil(T / delta_t))

        times, times_mask = self.get_time_grids(wf_params, num_steps)
        return wf_params, times, times_mask
