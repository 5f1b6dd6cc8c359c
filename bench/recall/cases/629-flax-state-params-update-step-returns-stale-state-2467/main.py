from functools import partial

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from jax import random


class BiasAdderWithRunningMean(nn.Module):
  momentum: float = 0.9

  @nn.compact
  def __call__(self, x):
    is_initialized = self.has_variable('batch_stats', 'mean')
    mean = self.variable('batch_stats', 'mean', jnp.zeros, x.shape[1:])
    bias = self.param('bias', lambda rng, shape: jnp.zeros(shape), x.shape[1:])
    if is_initialized:
      mean.value = (self.momentum * mean.value +
                    (1.0 - self.momentum) * jnp.mean(x, axis=0))
    return mean.value + bias


@partial(jax.jit, static_argnums=(0, 1))
def update_step(tx, apply_fn, x, opt_state, params, state):

  def loss(params):
    y, updated_state = apply_fn({'params': params, **state},
                                x, mutable=list(state.keys()))
    l = ((x - y) ** 2).sum()
    return l, updated_state

  (l, updated_state), grads = jax.value_and_grad(
      loss, has_aux=True)(params)
  updates, opt_state = tx.update(grads, opt_state)
  params = optax.apply_updates(params, updates)
  return opt_state, params, state


if __name__ == "__main__":
  model = BiasAdderWithRunningMean()
  dummy_input = jnp.ones((10, 5))
  variables = model.init(random.key(0), dummy_input)
  state, params = flax.core.pop(variables, 'params')
  del variables
  tx = optax.sgd(learning_rate=0.02)
  opt_state = tx.init(params)
  for _ in range(3):
    opt_state, params, state = update_step(tx, model.apply, dummy_input, opt_state, params, state)
  print("running mean updated:", bool(jnp.any(state['batch_stats']['mean'] != 0)))
