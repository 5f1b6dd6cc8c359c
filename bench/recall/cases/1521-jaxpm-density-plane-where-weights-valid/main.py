from functools import partial

import jax
import jax.numpy as jnp

from jaxpm_lite.lensing import density_plane

if __name__ == "__main__":
    box_shape = (8, 8, 8)
    positions = jax.random.uniform(jax.random.PRNGKey(0), (64, 3)) * 8.0
    # as in the lightcone code: one plane per shell, the whole function jitted
    plane_fn = jax.jit(partial(density_plane, box_shape=box_shape, plane_resolution=16))
    plane = plane_fn(positions, center=4.0, width=2.0)
    print("plane sum: %.3f" % float(plane.sum()))
