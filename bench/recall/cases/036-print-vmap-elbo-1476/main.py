from functools import partial

import jax.numpy as np
from jax import random, vmap


def diag_gaussian_sample(rng, mean, log_std):
    return mean + np.exp(log_std) * random.normal(rng, mean.shape)


def diag_gaussian_logpdf(x, mean, log_std):
    return np.sum(-0.5 * ((x - mean) / np.exp(log_std)) ** 2 - log_std)


def elbo(logprob, rng, mean, log_std):
    sample = diag_gaussian_sample(rng, mean, log_std)
    print(sample)
    return logprob(sample) - diag_gaussian_logpdf(sample, mean, log_std)


def batch_elbo(logprob, rng, params, num_samples):
    rngs = random.split(rng, num_samples)
    vectorized_elbo = vmap(partial(elbo, logprob), in_axes=(0, None, None))
    return np.mean(vectorized_elbo(rngs, *params))


if __name__ == "__main__":
    batch_elbo(lambda z: -np.sum(z ** 2), random.PRNGKey(0), (np.zeros(2), np.zeros(2)), 5)
