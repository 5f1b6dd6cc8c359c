from __future__ import annotations

from functools import partial
from typing import Optional

import jax
from jax import Array, jit, numpy as jnp
from jax.scipy.stats import binom as jax_binom

from .drvs import DiscreteRV


class Binomial(DiscreteRV):
    """Binomial random variable"""

    def __init__(self, p, n, name: Optional[str] = None) -> None:
        self._p, self._n = jnp.asarray(p), jnp.asarray(n)
        shape = jnp.shape(self._p)
        self.check_params()
        self._q = 1.0 - self._p
        super().__init__(name=name, shape=shape)

    def check_params(self) -> None:
        """Check the parameters of the random variable."""
        assert jnp.all(self._p >= 0.0) and jnp.all(self._p <= 1.0), "p must be in [0, 1]"
        assert jnp.all(self._n.dtype == jnp.int32), "n must be an integer"
        assert jnp.all(self._n > 0), "n must be positive"

    @partial(jit, static_argnums=(0))
    def logpmf_x(self, x):
        return jax_binom.logpmf(x, self._n, self._p)

    @partial(jit, static_argnums=(0,))
    def pmf_x(self, x):
        return jax_binom.pmf(x, self._n, self._p)

    @partial(jit, static_argnums=(0,))
    def logcdf_x(self, x):
        return jnp.log(self.cdf_x(x))

    @partial(jit, static_argnums=(0,))
    def cdf_x(self, x):
        xx = jnp.arange(0, self._n + 1, dtype=jnp.int32)
        complete_cdf = jnp.cumsum(self.pmf_x(xx))
        cond = [x < 0, x >= self._n, jnp.logical_and(x >= 0, x < self._n)]
        return jnp.select(cond, [0.0, 1.0, complete_cdf[x]])
