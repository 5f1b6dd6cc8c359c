import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, input_shape, target_shape, model_kwargs):
  emb = jax.random.normal(key, (model_kwargs['vocab_size'], 8))
  return jnp.zeros(input_shape) @ jnp.zeros((input_shape[-1], 8)) + emb[:1]


if __name__ == "__main__":
  transformer_kwargs = {'vocab_size': 32000, 'output_vocab_size': 32000, 'emb_dim': 1024, 'num_heads': 16, 'num_layers': 6, 'qkv_dim': 1024, 'mlp_dim': 4096, 'max_len': 256, 'share_embeddings': True, 'logits_via_embedding': True}
  init_rng = jax.random.PRNGKey(0)
  input_shape = (1, 256)
  target_shape = (1, 256)
  model = create_model(init_rng, input_shape, target_shape, transformer_kwargs)
