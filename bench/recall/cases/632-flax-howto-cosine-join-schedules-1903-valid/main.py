import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

import types
from schedules import create_learning_rate_fn


class MLP(nn.Module):
  @nn.compact
  def __call__(self, x):
    return nn.Dense(1)(nn.relu(nn.Dense(8)(x)))


@jax.jit
def train_step(state, batch):
  def loss_fn(params):
    pred = state.apply_fn({'params': params}, batch['x'])
    return jnp.mean((pred - batch['y']) ** 2)
  grads = jax.grad(loss_fn)(state.params)
  return state.apply_gradients(grads=grads)


if __name__ == "__main__":
  config = types.SimpleNamespace(warmup_epochs=1, num_epochs=5)
  learning_rate_fn = create_learning_rate_fn(config, 0.1, steps_per_epoch=10)
  model = MLP()
  batch = {'x': jnp.ones((4, 3)), 'y': jnp.zeros((4, 1))}
  params = model.init(jax.random.PRNGKey(0), batch['x'])['params']
  tx = optax.sgd(learning_rate=learning_rate_fn, momentum=0.9)
  state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
  for _ in range(3):
    state = train_step(state, batch)
  print("steps:", int(state.step))
