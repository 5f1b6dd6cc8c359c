import jax
import jax.numpy as jnp

from jaxley_lite.integrate import integrate
from jaxley_lite.modules import Module

if __name__ == "__main__":
    cell = Module(ncomp=4, diffusion_states=["CaCon_i"])
    params = [{"axial_diffusion_CaCon_i": jnp.full(4, 2e-3)}]

    def loss(params):
        return jnp.sum(integrate(cell, params) ** 2)

    print(loss(params))
    print(jax.jit(jax.grad(loss))(params))
