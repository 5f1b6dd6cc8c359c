import jax.numpy as jnp

import brainpy_lite as bp

if __name__ == "__main__":
    bp.math.enable_x64(True)
    x = jnp.linspace(0.0, 1.0, 3, dtype=jnp.float64)
    print("dtype:", x.dtype)
