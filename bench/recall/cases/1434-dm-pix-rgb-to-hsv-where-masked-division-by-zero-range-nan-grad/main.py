import jax
import jax.numpy as jnp

import dm_pix_lite as pix

if __name__ == "__main__":
  # color_conversion_test.py's ALL_ZEROS and ALL_ONES test images
  for name, rgb in [("zeros", jnp.zeros((4, 4, 3))), ("ones", jnp.ones((4, 4, 3)))]:
    jacobian = jax.jacrev(pix.rgb_to_hsv)(rgb)
    print(f"{name}: nan in jacobian: {bool(jnp.isnan(jacobian).any())}")
