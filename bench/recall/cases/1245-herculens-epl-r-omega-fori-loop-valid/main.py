import jax
import jax.numpy as jnp

from herculens_lite.MassModel.Profiles.epl import EPLMajorAxis

if __name__ == "__main__":
    profile = EPLMajorAxis()
    x = jnp.linspace(-1.0, 1.0, 50)
    y = jnp.linspace(-0.5, 0.5, 50)
    deflection = jax.jit(profile.derivatives)
    ax, ay = deflection(x, y, 1.2, 1.1, 0.8)
    jaxpr = jax.make_jaxpr(profile.derivatives)(x, y, 1.2, 1.1, 0.8).jaxpr
    n_eqns = len(jaxpr.eqns)
    has_loop = any(e.primitive.name in ("while", "scan") for e in jaxpr.eqns)
    print(f"deflection computed; {n_eqns} equations traced, unrolled: {not has_loop and n_eqns > 60}")
