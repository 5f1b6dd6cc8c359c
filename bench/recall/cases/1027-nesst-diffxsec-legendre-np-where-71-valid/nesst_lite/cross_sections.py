import numpy as np
from numpy.polynomial.legendre import legval

# Elastic single differential cross sections


# Evaluate the differential cross section by combining legendre and cross section
# See https://t2.lanl.gov/nis/endf/intro20.html
def diffxsec_legendre_eval(sig, mu, coeff):
    c = coeff.T
    ans = np.zeros_like(mu)
    if len(mu.shape) == 1:
        ans = sig * legval(mu, c, tensor=False)
    elif len(mu.shape) == 2:
        ans = sig * legval(mu, c[:, None, :], tensor=False)
    elif len(mu.shape) == 3:
        ans = sig * legval(mu, c[:, None, None, :], tensor=False)
    ans = np.where(np.abs(mu) > 1.0, 0.0, ans)
    return ans
