from functools import partial

import jax
import jax.numpy as np
from jax.scipy.stats import norm
from jax.scipy.special import logsumexp


@partial(jax.jit, static_argnums=(1,))
def rw_metropolis_kernel(rng_key, logpdf, position, log_prob):
    key1, key2 = jax.random.split(rng_key)
    move_proposal = jax.random.normal(key1, shape=position.shape) * 0.1
    proposal = position + move_proposal
    proposal_log_prob = logpdf(proposal)

    log_uniform = np.log(jax.random.uniform(key2))
    do_accept = log_uniform < proposal_log_prob - log_prob

    position = np.where(do_accept, proposal, position)
    log_prob = np.where(do_accept, proposal_log_prob, log_prob)
    return position, log_prob


@partial(jax.jit, static_argnums=(1, 2))
def rw_metropolis_sampler(rng_key, n_samples, logpdf, initial_position):
    keys = jax.random.split(rng_key, n_samples)
    def mh_update(state, key):
      position, log_prob = state
      new_position, new_log_prob = rw_metropolis_kernel(key, logpdf, position, log_prob)
      return (new_position, new_log_prob), position
    logp = logpdf(initial_position)
    _, positions = jax.lax.scan(mh_update, (initial_position, logp), keys)
    return positions


def mixture_logpdf(x):
    dist_1 = jax.partial(norm.logpdf, loc=-2.0, scale=1.2)
    dist_2 = jax.partial(norm.logpdf, loc=0, scale=1)
    dist_3 = jax.partial(norm.logpdf, loc=3.2, scale=5)
    dist_4 = jax.partial(norm.logpdf, loc=2.5, scale=2.8)
    log_probs = np.array([dist_1(x[0]), dist_2(x[1]), dist_3(x[2]), dist_4(x[3])])
    weights = np.array([0.2, 0.3, 0.1, 0.4])
    return -logsumexp(np.log(weights) - log_probs)


if __name__ == "__main__":
    n_dim = 4
    n_samples = 100
    n_chains = 4
    rng_key = jax.random.PRNGKey(42)

    rng_keys = jax.random.split(rng_key, n_chains)  # (nchains,)
    initial_position = np.zeros((n_dim, n_chains))  # (n_dim, n_chains)

    run_mcmc = jax.vmap(rw_metropolis_sampler, in_axes=(0, None, None, 1),
                        out_axes=0)
    positions = run_mcmc(rng_keys, n_samples, mixture_logpdf, initial_position)
    assert positions.shape == (n_chains, n_samples, n_dim)
    print("shape:", positions.shape)
