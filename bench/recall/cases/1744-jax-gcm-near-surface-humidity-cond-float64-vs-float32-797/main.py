import jax

jax.config.update("jax_enable_x64", True)  # float64 dynamics

import jax.numpy as jnp

from jcm_lite.physics.speedy.params import SurfaceFluxParameters
from jcm_lite.physics.surface.speedy_surface_flux import get_surface_fluxes

if __name__ == "__main__":
    physics_dtype = jnp.float32  # dycore.physics_dtype = float32
    shape = (1, 216)
    t_near = jnp.full(shape, 288.0, physics_dtype)
    psa = jnp.ones(shape, physics_dtype)
    rh = jnp.full(shape, 0.8, physics_dtype)
    q = jnp.full(shape, 8.0, physics_dtype)
    sfp = SurfaceFluxParameters.default()
    try:
        print("q_sea:", get_surface_fluxes(t_near, psa, rh, q, sfp).dtype)
    except TypeError as e:
        print("TypeError:", e)
