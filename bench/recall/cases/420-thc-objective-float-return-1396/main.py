import math

import jax
import jax.numpy as jnp


@jax.jit
def compute_objective_batched(chis, zetas, chols, norm_factors, penalty_param=0.0) -> float:
    """Compute THC objective function.

    Batches evaluation over kpts.
    """
    eri_thc = jnp.einsum(
        "Jpm,Jqm,Jmn,Jrn,Jsn->Jpqrs",
        chis[0].conj(),
        chis[1],
        zetas,
        chis[2].conj(),
        chis[3],
        optimize=True,
    )
    eri_ref = jnp.einsum("Jnpq,Jnrs->Jpqrs", chols[0], chols[1], optimize=True)
    deri = eri_thc - eri_ref
    norm_left = norm_factors[0] * norm_factors[1]
    norm_right = norm_factors[2] * norm_factors[3]
    MPQ_normalized = jnp.einsum("JP,JPQ,JQ->JPQ", norm_left, zetas, norm_right, optimize=True)

    lambda_z = jnp.sum(jnp.einsum("JPQ->J", 0.5 * jnp.abs(MPQ_normalized)) ** 2.0)

    res = 0.5 * jnp.sum((jnp.abs(deri)) ** 2) + penalty_param * lambda_z
    return float(res)


def thc_objective_regularized_batched(chi, zeta, chol, norm_kp, batch_size, num_kpts, penalty_param=0.0):
    num_batches = math.ceil(num_kpts**2 / batch_size)
    objective = 0.0
    for ibatch in range(num_batches):
        objective += compute_objective_batched(
            (chi, chi, chi, chi),
            zeta,
            (chol, chol),
            (norm_kp, norm_kp, norm_kp, norm_kp),
            penalty_param=penalty_param,
        )
    return objective


if __name__ == "__main__":
    J, p, m, n = 2, 3, 4, 5
    chi = jnp.ones((J, p, m))
    zeta = jnp.ones((J, m, m))
    chol = jnp.ones((J, n, p, p))
    norm_kp = jnp.ones((J, m))
    print(thc_objective_regularized_batched(chi, zeta, chol, norm_kp, batch_size=4, num_kpts=2))
