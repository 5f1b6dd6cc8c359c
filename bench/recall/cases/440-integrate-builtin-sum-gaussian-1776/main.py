import time

import jax.numpy as np
from jax import jit, make_jaxpr
from jax.scipy.stats.norm import pdf

# set up evaluation points for numerical integration
integr_resolution = 400
lower_bound = -100
upper_bound = 100
integr_grid = np.linspace(lower_bound, upper_bound, integr_resolution)
proba = pdf(integr_grid)
integration_weight = (upper_bound - lower_bound) / integr_resolution


# integrate with new mean
def integrate(mu_new):
    x_new = integr_grid - mu_new

    proba_new = pdf(x_new)
    total_proba = sum(proba * proba_new * integration_weight)

    return total_proba


if __name__ == "__main__":
    print('starting jit')
    start = time.perf_counter()
    jaxpr = make_jaxpr(integrate)(1.0)
    integrate = jit(integrate)
    integrate(1).block_until_ready()
    stop = time.perf_counter()
    print('took: ', stop - start)
    print("adds staged:", str(jaxpr).count(" = add "))
