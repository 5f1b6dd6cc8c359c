import jax
import jax.numpy as jnp
import numpy as np

import dm_pix_lite as pix

if __name__ == "__main__":
  img = np.zeros((16, 16, 3))
  print("ssim:", pix.ssim(img, img))
  grad = jax.grad(pix.ssim)(img, img)
  print("nan in grad:", bool(jnp.isnan(grad).any()))
