from typing import Dict

import jax.numpy as jnp
from numpyro.distributions import Distribution


class JointDistribution:
    """Independent priors of the population parameters, in the order of their names."""

    def __init__(self, *marginal_distributions: Distribution, validate_args=None):
        self.marginal_distributions = marginal_distributions

    def log_prob(self, value):
        return sum(
            d.log_prob(value[..., i]) for i, d in enumerate(self.marginal_distributions)
        )


class Bake:
    """A model factory with its parameter priors (the reduced form of gwkokab's Bake)."""

    def __init__(self, dist_fn, **variables: Distribution):
        self.dist_fn = dist_fn
        self.variables = variables

    def get_dist(self):
        duplicates: Dict[str, str] = {}
        return self.variables, duplicates, self.dist_fn
