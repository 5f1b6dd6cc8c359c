from typing import Dict, List

import jax.numpy as jnp


class Module:
    """A compartment model with ion diffusion (the parameter assembly only)."""

    def __init__(self, ncomp: int, diffusion_states: List[str]):
        self.diffusion_states = diffusion_states
        self.jaxnodes = {
            "radius": jnp.ones(ncomp),
            "length": jnp.full(ncomp, 10.0),
            "axial_resistivity": jnp.full(ncomp, 5000.0),
            "capacitance": jnp.ones(ncomp),
        }
        for ion_name in diffusion_states:
            self.jaxnodes[f"axial_diffusion_{ion_name}"] = jnp.full(ncomp, 1e-3)

    def set(self, key: str, val: float):
        if key in [f"axial_diffusion_{ion_name}" for ion_name in self.diffusion_states]:
            assert val > 0, (
                f"You are trying to set `{key}` to `{val}`. "
                f"We only allow strictly positive values for the "
                f"diffusion. Zero is not allowed either, but you can use very small "
                f"values (e.g. 1e-8)."
            )
        self.jaxnodes[key] = jnp.full_like(self.jaxnodes[key], val)

    def get_all_parameters(self, pstate: List[Dict]) -> Dict[str, jnp.ndarray]:
        """Return all parameters (and coupling conductances) needed to simulate.

        This function is run within `jx.integrate()`.
        """
        params = {}
        for key in ["radius", "length", "axial_resistivity", "capacitance"]:
            params[key] = self.jaxnodes[key]

        for key in self.diffusion_states:
            params[f"axial_diffusion_{key}"] = self.jaxnodes[f"axial_diffusion_{key}"]

        # Override with those parameters set by `.make_trainable()`.
        for parameter in pstate:
            key = parameter["key"]
            inds = parameter["indices"]
            set_param = parameter["val"]
            if key in params:  # Only parameters, not initial states.
                params[key] = params[key].at[inds].set(set_param[:, None])

        # Compute conductance params and add them to the params dictionary.
        params["axial_conductances"] = params["radius"] / (
            params["axial_resistivity"] * params["length"]
        )
        return params
