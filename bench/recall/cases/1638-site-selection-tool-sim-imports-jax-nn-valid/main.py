import jax
import jax.numpy as jnp

from bsst_lite import sim

if __name__ == "__main__":
    x = jnp.array([0.0, 2.0, 3.0, 4.0, 0.0, 5.0])
    capper = sim.differentiable_cumsum_capper(x, threshold=6.0, width=1 / 3.)
    grad = jax.grad(lambda t: sim.differentiable_cumsum_capper(x, t, 1 / 3.).sum())(6.0)
    print("capped total:", round(float((capper * x).sum()), 2))
    print("grad is finite:", bool(jnp.isfinite(grad)))
