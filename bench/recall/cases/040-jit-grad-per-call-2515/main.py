import jax.numpy as jnp
from jax import grad, jit
from numpy import random

sigma = 5.0
mu = 100.0
N = 100
tries = 2
s0 = sigma + random.randn(tries) * 0.5
s1 = mu + random.randn(tries) * 10.0


def _Likelihood(s, m, w):
    return jnp.sum((w - m) ** 2 / s)


def my_dev_likelihood(pars):
    return jit(grad(_Likelihood))(pars[0], pars[1], x)


if __name__ == "__main__":
    for ss, mm in zip(s0, s1):
        x = random.randn(N) * sigma + mu
        my_pars1 = (ss, mm)
        my_pars2 = (ss + 0.1, mm + 0.1)
        my_dev_likelihood(my_pars1)
        my_dev_likelihood(my_pars2)
