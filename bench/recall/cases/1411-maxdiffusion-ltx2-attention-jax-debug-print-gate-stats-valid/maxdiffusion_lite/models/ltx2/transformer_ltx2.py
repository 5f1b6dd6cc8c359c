import jax
from flax import nnx

from maxdiffusion_lite.models.ltx2.attention_ltx2 import LTX2Attention


class LTX2VideoTransformerBlock(nnx.Module):

  def __init__(self, dim: int, heads: int, dim_head: int, *, rngs: nnx.Rngs):
    self.norm1 = nnx.RMSNorm(dim, rngs=rngs)
    self.attn1 = LTX2Attention(dim, heads, dim_head, gated_attention=True, rngs=rngs)

  def __call__(self, hidden_states: jax.Array) -> jax.Array:
    norm_hidden_states = self.norm1(hidden_states)
    return hidden_states + self.attn1(norm_hidden_states)


@nnx.jit
def transformer_forward_pass(block: LTX2VideoTransformerBlock, latents: jax.Array) -> jax.Array:
  return block(latents)
