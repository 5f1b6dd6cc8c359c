import jax.numpy as jnp


def integrate(module, params):
    """Simulate (here: a single relaxation step of the ion concentrations)."""
    pstate = [
        {"key": key, "indices": jnp.arange(len(val))[:, None], "val": val}
        for p in params
        for key, val in p.items()
    ]
    all_params = module.get_all_parameters(pstate)
    conc = jnp.linspace(0.0, 1.0, all_params["radius"].shape[0])
    flux = all_params["axial_diffusion_CaCon_i"] * jnp.gradient(conc)
    return conc + flux * all_params["axial_conductances"]
