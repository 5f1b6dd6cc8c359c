import collections
import functools

import jax
import jax.numpy as jnp

from scenic_lite.train_lib import train_utils


def training_loss_fn(params, batch, dropout_rng):
  logits = batch['inputs'] @ params['w']
  loss = jnp.mean((logits - batch['label']) ** 2)
  return loss, ({}, logits)


def metrics_fn(logits, batch):
  return {'mse': (jnp.sum((logits - batch['label']) ** 2), logits.shape[0])}


@functools.partial(jax.jit, static_argnums=(2,))
def train_step(train_state, batch, accum_steps, dropout_rng):
  compute_gradient_fn = jax.value_and_grad(training_loss_fn, has_aux=True)
  return train_utils.accumulate_gradients(compute_gradient_fn, metrics_fn,
                                          train_state, batch, dropout_rng,
                                          accum_steps)


if __name__ == '__main__':
  TrainState = collections.namedtuple('TrainState', 'params')
  train_state = TrainState(params={'w': jnp.ones((3, 1))})
  batch = {'inputs': jnp.ones((8, 3)), 'label': jnp.zeros((8, 1))}
  _, grad, loss, metrics = train_step(train_state, batch, 4, jax.random.PRNGKey(0))
  print('loss: %.3f' % float(loss))
