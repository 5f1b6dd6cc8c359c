import numpy as np
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp

if __name__ == "__main__":
    print("numpy:", (1 / 256 ** np.arange(1, 5)).astype(np.float32))
    # output:
    # array([3.9062500e-03, 1.5258789e-05, 5.9604645e-08, 2.3283064e-10], dtype=float32)

    print("jax:  ", (1 / 256 ** jnp.arange(1, 5)).astype(jnp.float32))
    # output:
    # DeviceArray([3.9062500e-03, 1.5258789e-05, 5.9604645e-08,           inf],            dtype=float32)
