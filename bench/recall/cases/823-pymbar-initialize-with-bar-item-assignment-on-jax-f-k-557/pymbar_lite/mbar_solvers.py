"""MBAR solvers (reduced: the self-consistent iteration, jitted with JAX)."""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


@jax.jit
def _self_consistent_update(u_kn, N_k, f_k):
    log_denom_n = logsumexp(f_k[:, None] - u_kn, b=N_k[:, None], axis=0)
    return -logsumexp(-u_kn - log_denom_n, axis=1)


def solve_mbar_for_all_states(u_kn, N_k, f_k, states_with_samples, solver_protocol, n_iter=200):
    u_kn = jnp.asarray(u_kn, dtype=jnp.float32)
    N_k = jnp.asarray(N_k, dtype=jnp.float32)
    f_k = jnp.asarray(f_k, dtype=jnp.float32)
    for _ in range(n_iter):
        f_k = _self_consistent_update(u_kn, N_k, f_k)
        f_k = f_k - f_k[0]
    return f_k
