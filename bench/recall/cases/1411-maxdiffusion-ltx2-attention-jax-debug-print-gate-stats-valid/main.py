import jax.numpy as jnp
from flax import nnx

from maxdiffusion_lite.models.ltx2.transformer_ltx2 import LTX2VideoTransformerBlock, transformer_forward_pass

if __name__ == "__main__":
  block = LTX2VideoTransformerBlock(dim=16, heads=2, dim_head=8, rngs=nnx.Rngs(0))
  latents = jnp.ones((1, 4, 16))
  try:
    out = transformer_forward_pass(block, latents)
    print("denoised:", out.shape)
  except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0][:90]}")
