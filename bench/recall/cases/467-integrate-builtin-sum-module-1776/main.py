import time

from jax import jit, make_jaxpr
from jax.scipy.stats.norm import pdf

from quadrature.grid import integr_grid, proba, riemann_sum


# integrate with new mean
def integrate(mu_new):
    x_new = integr_grid - mu_new
    proba_new = pdf(x_new)
    return riemann_sum(proba * proba_new)


if __name__ == "__main__":
    start = time.perf_counter()
    jaxpr = make_jaxpr(integrate)(1.0)
    integrate_jit = jit(integrate)
    integrate_jit(1.0).block_until_ready()
    print('took: ', time.perf_counter() - start)
    print("adds staged:", str(jaxpr).count(" = add "))
