"""ListOps training script (the model creation part)."""
import functools

import jax
import jax.numpy as jnp

from lra_lite.models import transformer


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, flax_module, input_shape, model_kwargs):
  module = flax_module(**model_kwargs)
  initial_params = module.init(key, jnp.ones(input_shape, jnp.int32))
  return initial_params


def main(config, vocab_size=14):
  batch_size = config['batch_size']
  random_seed = config['random_seed']
  model_type = config['model_type']
  model_kwargs = (
      dict(config['model_kwargs']) if 'model_kwargs' in config else {})

  max_length = config['max_length']
  input_shape = (batch_size, max_length)

  model_kwargs.update({
      'vocab_size': vocab_size,
      'emb_dim': config['emb_dim'],
      'num_classes': 10,
  })

  rng = jax.random.PRNGKey(random_seed)
  rng, init_rng = jax.random.split(rng)

  if model_type == 'transformer':
    model = create_model(init_rng, transformer.TransformerEncoder, input_shape,
                         model_kwargs)
  else:
    raise ValueError('Model type not supported')
  return model
