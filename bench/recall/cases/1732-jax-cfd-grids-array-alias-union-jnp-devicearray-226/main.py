import jax.numpy as jnp

import jax_cfd_lite.base as cfd

if __name__ == "__main__":
  grid = cfd.grids.Grid((64, 64), domain=((0, 2 * jnp.pi), (0, 2 * jnp.pi)))
  print("step:", grid.step)
