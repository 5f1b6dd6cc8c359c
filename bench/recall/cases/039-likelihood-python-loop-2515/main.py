import jax
from jax import grad, jit
from jax.numpy import exp, log, pi, sqrt
from numpy import random

sigma = 5.0
mu = 100.0
N = 100
x = random.randn(N) * sigma + mu


def _Likelihood(s, m, w):
    sum = 0
    for _x in w:
        term = -log(1 / (s * sqrt(2. * pi)) * exp(- ((_x - m) / s)**2 / 2.))
        sum += term
    return sum


if __name__ == "__main__":
    eqns = jax.make_jaxpr(_Likelihood)(5.0, 100.0, x).jaxpr.eqns
    print("unrolled:", len(eqns) >= N)
