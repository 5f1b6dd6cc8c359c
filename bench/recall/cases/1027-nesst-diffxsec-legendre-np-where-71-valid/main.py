import numpy as np

from nesst_lite.cross_sections import diffxsec_legendre_eval
from nesst_lite.jax_xsec import total_xsec

if __name__ == "__main__":
    E = np.linspace(1.0, 14.0, 5)
    sig = total_xsec(E, np.array([0.0, 20.0]), np.array([1.0, 3.0]))
    mu = np.linspace(-1.2, 1.2, 5)
    coeff = np.stack([np.full(5, 0.5), np.full(5, 0.1)], axis=1)
    try:
        ans = diffxsec_legendre_eval(sig, mu, coeff)
        print("dsigma/dmu:", np.asarray(ans).round(3))
    except TypeError as exc:
        print("TypeError", str(exc).splitlines()[0])
