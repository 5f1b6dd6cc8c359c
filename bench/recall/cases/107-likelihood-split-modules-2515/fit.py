from jax import grad, jit
from numpy import random

from likelihood import _Likelihood

sigma = 5.0
mu = 100.0
N = 100


def my_dev_likelihood(pars, x):
    return jit(grad(_Likelihood))(pars[0], pars[1], x)


if __name__ == "__main__":
    for ss, mm in [(5.1, 99.0), (4.8, 101.0)]:
        x = random.randn(N) * sigma + mu
        my_dev_likelihood((ss, mm), x)
        my_dev_likelihood((ss + 0.1, mm + 0.1), x)
