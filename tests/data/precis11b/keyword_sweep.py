import jax
import jax.numpy as jnp


def profile(scale=1.0, sigma=1.0):
    return lambda r: jnp.exp(-r / scale) / sigma


def check_derivatives(x):
    for name in ["scale", "sigma"]:
        def flux(v):
            return jnp.sum(profile(**{name: v})(x))

        grad_flux = jax.jit(jax.grad(flux))
        print(name, grad_flux(2.0))
