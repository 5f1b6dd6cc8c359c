import jax.numpy as jnp


class LinearModel:
  """A stand-in for an init2winit model: its training_cost is what update differentiates."""

  def training_cost(self, params, batch, batch_stats=None, dropout_rng=None):
    pred = batch['inputs'] @ params['w'] + params['b']
    return jnp.mean((pred - batch['targets']) ** 2), {'batch_stats': batch_stats}
