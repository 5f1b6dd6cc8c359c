"""Non-learned "base" physics routines for JAX-CFD."""

import jax_cfd_lite.base.boundaries
import jax_cfd_lite.base.grids
