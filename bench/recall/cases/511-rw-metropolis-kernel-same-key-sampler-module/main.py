from functools import partial

import jax
import jax.numpy as np
from jax.scipy.stats import norm
from jax.scipy.special import logsumexp

from sampler import rw_metropolis_sampler


def mixture_logpdf(x):
    dist_1 = partial(norm.logpdf, loc=-2.0, scale=1.2)
    dist_2 = partial(norm.logpdf, loc=0, scale=1)
    dist_3 = partial(norm.logpdf, loc=3.2, scale=5)
    dist_4 = partial(norm.logpdf, loc=2.5, scale=2.8)
    log_probs = np.array([dist_1(x[0]), dist_2(x[1]), dist_3(x[2]), dist_4(x[3])])
    weights = np.repeat(np.array([[0.2, 0.3, 0.1, 0.4]]).T, x.shape[1], axis=1)
    return -logsumexp(np.log(weights) - log_probs, axis=0)


if __name__ == "__main__":
    n_dim = 4
    n_samples = 10
    n_chains = 4
    logpdf = jax.jit(mixture_logpdf)
    initial_position = np.zeros((n_dim, n_chains))
    with jax.debug_key_reuse(True):
        rng_key = jax.random.key(42)
        samples = rw_metropolis_sampler(rng_key, logpdf, initial_position)
        for i, sample in enumerate(samples):
            if i == n_samples - 1:
                break
        sample.block_until_ready()
