import jax.numpy as np
from jax.scipy.stats.norm import pdf

# set up evaluation points for numerical integration
integr_resolution = 400
lower_bound = -100
upper_bound = 100
integr_grid = np.linspace(lower_bound, upper_bound, integr_resolution)
proba = pdf(integr_grid)
integration_weight = (upper_bound - lower_bound) / integr_resolution


def riemann_sum(values):
    return sum(values * integration_weight)
