import jax
import jax.numpy as jnp

from s2fft_lite.wigner.trapani import compute_quarter_jax

if __name__ == "__main__":
    L = 64
    dl = jnp.zeros((2 * L - 1, 2 * L - 1))
    dl = dl.at[L - 1, L - 1].set(1.0)  # el = 0 initialisation
    jaxpr = jax.make_jaxpr(compute_quarter_jax, static_argnums=(1,))(dl, L, 1)
    n_eqns = len(jaxpr.eqns[0].params["jaxpr"].jaxpr.eqns)
    print("equations:", n_eqns, "L:", L)
    print("unrolled:", n_eqns > 5 * L)
