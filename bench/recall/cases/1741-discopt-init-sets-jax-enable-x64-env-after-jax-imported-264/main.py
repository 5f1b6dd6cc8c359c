import jax
import jax.numpy as jnp

import discopt_lite

if __name__ == "__main__":
    r = discopt_lite.residual(jnp.array(1.0 + 1e-9), 1.0)
    print("jax_enable_x64:", jax.config.jax_enable_x64)
    print("dtype:", r.dtype, "residual:", float(r))
