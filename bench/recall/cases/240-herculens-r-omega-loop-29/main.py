from functools import partial

import jax
import jax.numpy as jnp
from jax import jit


def R_omega(z, t, q, nmax):
    """Angular dependency of the deflection angle in the EPL lens profile."""
    # Compute constant factors
    f = (1. - q) / (1. + q)
    ei2phi = z / z.conjugate()
    # Set the first term of the series
    omega_i = z  # jnp.array(np.copy(z))  # Avoid overwriting z ?
    partial_sum = omega_i

    for i in range(1, nmax):
        # Iteration-dependent factor
        ratio = (2. * i - (2. - t)) / (2. * i + (2 - t))
        # Current Omega term proportional to the previous term
        omega_i = -f * ratio * ei2phi * omega_i
        # Update the partial sum
        partial_sum += omega_i
    return partial_sum


R_omega_jit = partial(jit, static_argnums=(3,))(R_omega)

if __name__ == "__main__":
    z = jnp.array([1.0 + 0.5j, 0.3 - 0.2j])
    print(R_omega_jit(z, 0.1, 0.8, 50))
    eqns = jax.make_jaxpr(R_omega, static_argnums=(3,))(z, 0.1, 0.8, 50).jaxpr.eqns
    print("unrolled:", len(eqns) >= 50)
