import jax
import jax.numpy as jnp

import autogalaxy_lite as ag


@jax.jit
def log_likelihood(mass, grid, data):
    smbh = ag.SMBH(mass=mass)
    model = smbh.deflections_yx_2d_from(grid=grid, xp=jnp)
    return -jnp.sum((model - data) ** 2)


if __name__ == "__main__":
    grid = jnp.array([[0.5, 0.5], [1.0, -0.5], [-1.0, 0.25]])
    data = jnp.zeros((3, 2))
    print("log_likelihood:", float(log_likelihood(1e10, grid, data)))
