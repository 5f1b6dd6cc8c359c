import jax.numpy as jnp

import jax_fdm_lite
from jax_fdm_lite import DTYPE_JAX

if __name__ == "__main__":
    # as jax_fdm's ParameterManager: force densities cast to the package's float dtype
    q = jnp.asarray([1.0, 2.0, 3.0], dtype=DTYPE_JAX)
    print("dtype:", q.dtype)
