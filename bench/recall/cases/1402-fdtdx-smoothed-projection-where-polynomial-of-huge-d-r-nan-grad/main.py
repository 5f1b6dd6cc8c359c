import jax
import jax.numpy as jnp

from fdtdx_lite.objects.device.parameters.projection import smoothed_projection

if __name__ == "__main__":
    # a smooth design field with an almost flat region (tiny but nonzero gradient)
    ramp = jnp.linspace(0.0, 1e-10, 8)
    rho = ramp[:, None] + ramp[None, :]

    def loss(p):
        return jnp.sum(smoothed_projection(p, beta=5.0, eta=0.5, resolution=1.0))

    print("value:", loss(rho))
    g = jax.grad(loss)(rho)
    print("nan in grad:", bool(jnp.isnan(g).any()))
