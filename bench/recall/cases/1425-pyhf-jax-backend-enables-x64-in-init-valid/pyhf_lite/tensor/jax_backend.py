import jax.numpy as np
from jax import config
import numpy as onp
import logging
from scipy.special import gammaln

log = logging.getLogger(__name__)


class jax_backend(object):
    """jax backend for pyhf"""

    def __init__(self, **kwargs):
        self.name = 'jax'
        config.update('jax_enable_x64', True)

    def astensor(self, tensor_in, dtype='float'):
        """
        Convert to a NumPy array.

        Args:
            tensor_in (Number or Tensor): Tensor object

        Returns:
            `numpy.ndarray`: A multi-dimensional, fixed-size homogenous array.
        """
        dtypemap = {'float': onp.float64, 'int': onp.int64, 'bool': onp.bool_}
        dtype = dtypemap[dtype]
        return np.asarray(tensor_in, dtype=dtype)

    def sum(self, tensor_in, axis=None):
        return np.sum(tensor_in, axis=axis)

    def log(self, tensor_in):
        return np.log(tensor_in)

    def poisson_logpdf(self, n, lam):
        n = np.asarray(n)
        lam = np.asarray(lam)
        return n * np.log(lam) - lam - gammaln(n + 1.0)
