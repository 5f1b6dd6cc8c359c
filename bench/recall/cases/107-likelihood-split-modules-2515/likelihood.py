from jax.numpy import exp, log, pi, sqrt


def _Likelihood(s, m, w):
    sum = 0
    for _x in w:
        term = -log(1 / (s * sqrt(2. * pi)) * exp(- ((_x - m) / s)**2 / 2.))
        sum += term
    return sum
