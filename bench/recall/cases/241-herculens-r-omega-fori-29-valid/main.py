from functools import partial

import jax
import jax.numpy as jnp
from jax import jit, lax


def R_omega(z, t, q, nmax):
    """Angular dependency of the deflection angle in the EPL lens profile."""
    # Compute constant factors
    f = (1. - q) / (1. + q)
    ei2phi = z / z.conjugate()
    # Set the first term of the series
    omega_i = z  # jnp.array(np.copy(z))  # Avoid overwriting z ?
    partial_sum = omega_i

    @jit
    def body_fun(i, val):
        # Current term in the series is proportional to the previous
        ratio = (2. * i + t - 2.) / (2. * i - t + 2.)
        val[1] = -f * ei2phi * ratio * val[1]
        # Adds the current term to the partial sum
        val[0] += val[1]
        return val

    return lax.fori_loop(1, nmax, body_fun, [partial_sum, omega_i])[0]


R_omega_jit = partial(jit, static_argnums=(3,))(R_omega)

if __name__ == "__main__":
    z = jnp.array([1.0 + 0.5j, 0.3 - 0.2j])
    print(R_omega_jit(z, 0.1, 0.8, 50))
    eqns = jax.make_jaxpr(R_omega, static_argnums=(3,))(z, 0.1, 0.8, 50).jaxpr.eqns
    print("rolled:", len(eqns) < 50)
