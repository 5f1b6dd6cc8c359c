"""Transformer-based language models (reduced)."""

from typing import Callable

import flax.linen as nn
import jax.numpy as jnp


class TransformerLM(nn.Module):
  """Transformer Model for language modeling."""
  vocab_size: int
  emb_dim: int = 8
  max_len: int = 16
  dtype: Callable = jnp.float32

  @nn.compact
  def __call__(self, inputs):
    x = inputs.astype('int32')
    embed = nn.Embed(num_embeddings=self.vocab_size, features=self.emb_dim, name='embed')
    x = embed(x)
    pos = self.param('pos_embedding', nn.initializers.normal(0.02), (1, self.max_len, self.emb_dim))
    x = x + pos[:, :inputs.shape[1], :]
    x = nn.Dense(self.emb_dim, name='mlp')(nn.relu(x))
    logits = embed.attend(x.astype(jnp.float32))
    return logits
