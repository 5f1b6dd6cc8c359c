from typing import Optional

import jax
import jax.numpy as jnp
from flax import nnx


def apply_attention(query, key, value, heads, dim_head):
  b, s, _ = query.shape
  q = query.reshape(b, s, heads, dim_head)
  k = key.reshape(b, -1, heads, dim_head)
  v = value.reshape(b, -1, heads, dim_head)
  weights = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(dim_head), axis=-1)
  return jnp.einsum("bhqk,bkhd->bqhd", weights, v).reshape(b, s, -1)


class LTX2Attention(nnx.Module):

  def __init__(
      self,
      query_dim: int,
      heads: int,
      dim_head: int,
      gated_attention: bool = True,
      *,
      rngs: nnx.Rngs,
  ):
    self.heads = heads
    self.dim_head = dim_head
    inner_dim = heads * dim_head
    self.to_q = nnx.Linear(query_dim, inner_dim, rngs=rngs)
    self.to_k = nnx.Linear(query_dim, inner_dim, rngs=rngs)
    self.to_v = nnx.Linear(query_dim, inner_dim, rngs=rngs)
    if gated_attention:
      self.to_gate_logits = nnx.Linear(query_dim, heads, rngs=rngs)
    else:
      self.to_gate_logits = None
    self.to_out = nnx.Linear(inner_dim, query_dim, rngs=rngs)
    self.dropout_layer = None

  def __call__(
      self,
      hidden_states: jax.Array,
      encoder_hidden_states: Optional[jax.Array] = None,
  ) -> jax.Array:
    context = hidden_states if encoder_hidden_states is None else encoder_hidden_states
    query = self.to_q(hidden_states)
    key = self.to_k(context)
    value = self.to_v(context)

    with jax.named_scope("Attention and Output Project"):
      # 4. Attention
      attn_output = apply_attention(query, key, value, self.heads, self.dim_head)

      if getattr(self, "to_gate_logits", None) is not None:
        # Auditing gate logits parameters
        gate_kernel = self.to_gate_logits.kernel
        gate_bias = self.to_gate_logits.bias
        if hasattr(gate_kernel, "value"):
          gate_kernel = gate_kernel.value
        if hasattr(gate_bias, "value"):
          gate_bias = gate_bias.value

        import jax.numpy as jnp
        jax.debug.print("[Gating Diagnostics] to_gate_logits kernel - mean: {mean:.8f}, std: {std:.8f}", mean=jnp.mean(gate_kernel), std=jnp.std(gate_kernel))
        jax.debug.print("[Gating Diagnostics] to_gate_logits bias - mean: {mean:.8f}, std: {std:.8f}", mean=jnp.mean(gate_bias), std=jnp.std(gate_bias))

        gate_logits = self.to_gate_logits(hidden_states)
        b, s, _ = attn_output.shape
        attn_output = attn_output.reshape(b, s, self.heads, self.dim_head)
        gates = 2.0 * jax.nn.sigmoid(gate_logits)
        attn_output = attn_output * jnp.expand_dims(gates, axis=-1)
        attn_output = attn_output.reshape(b, s, -1)

      # 7. Output Projection
      hidden_states = self.to_out(attn_output)

      if self.dropout_layer is not None:
        hidden_states = self.dropout_layer(hidden_states)

    return hidden_states
