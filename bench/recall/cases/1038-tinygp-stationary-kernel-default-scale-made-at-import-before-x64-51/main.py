import jax
import tinygp_lite

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp

if __name__ == "__main__":
    kernel = tinygp_lite.kernels.Matern32()
    print("scale dtype:", kernel.scale.dtype)
    print("k dtype:", kernel.evaluate(jnp.float64(0.1), jnp.float64(0.3)).dtype)
