import haiku as hk
import jax
import jax.numpy as jnp


def forward(events, is_training=True):
  embed = hk.Embed(vocab_size=16, embed_dim=8)(events)
  hidden = jax.nn.gelu(hk.Linear(8)(embed))
  return hk.Linear(16)(hidden)


model = hk.transform_with_state(forward)
