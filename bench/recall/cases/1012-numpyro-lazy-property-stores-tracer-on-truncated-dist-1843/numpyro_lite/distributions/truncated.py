import jax.numpy as jnp
from jax.scipy.stats import norm

from numpyro_lite.distributions.util import lazy_property


class Normal:
    def __init__(self, loc=0.0, scale=1.0):
        self.loc = jnp.asarray(loc, dtype=float)
        self.scale = jnp.asarray(scale, dtype=float)

    def cdf(self, value):
        return norm.cdf(value, self.loc, self.scale)

    def log_prob(self, value):
        return norm.logpdf(value, self.loc, self.scale)


class TwoSidedTruncatedDistribution:
    def __init__(self, base_dist, low=0.0, high=1.0):
        self.base_dist = base_dist
        self.low = jnp.asarray(low, dtype=float)
        self.high = jnp.asarray(high, dtype=float)

    @lazy_property
    def _tail_prob_at_low(self):
        # if low < loc, returns cdf(low); otherwise returns 1 - cdf(low)
        loc = self.base_dist.loc
        sign = jnp.where(loc >= self.low, 1.0, -1.0)
        return self.base_dist.cdf(loc - sign * (loc - self.low))

    @lazy_property
    def _tail_prob_at_high(self):
        # if low < loc, returns cdf(high); otherwise returns 1 - cdf(high)
        loc = self.base_dist.loc
        sign = jnp.where(loc >= self.low, 1.0, -1.0)
        return self.base_dist.cdf(loc - sign * (loc - self.high))

    @lazy_property
    def _log_diff_tail_probs(self):
        loc = self.base_dist.loc
        sign = jnp.where(loc >= self.low, 1.0, -1.0)
        return jnp.log(sign * (self._tail_prob_at_high - self._tail_prob_at_low))

    def log_prob(self, value):
        # if low < loc, returns log(1) = 0; otherwise returns log(-1 + cdf(high) / cdf(low))
        return self.base_dist.log_prob(value) - self._log_diff_tail_probs
