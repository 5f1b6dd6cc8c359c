import types

import jax
import jax.numpy as jnp

from scenic_lite.train_lib_deprecated import lr_schedules

config = types.SimpleNamespace(lr_configs={
    'learning_rate_schedule': 'compound',
    'factors': 'constant*polynomial',
    'base_learning_rate': 0.1,
    'decay_steps': 100,
    'end_factor': 0.01,
    'power': 2.0,
})
learning_rate_fn = lr_schedules.get_learning_rate_fn(config)


@jax.jit
def train_step(params, grads, global_step):
  # as scenic's train steps: the learning rate of the traced global step
  lr = learning_rate_fn(global_step)
  return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), lr


if __name__ == "__main__":
  params = {'w': jnp.ones(3)}
  for step in [0, 50, 150]:
    params, lr = train_step(params, {'w': jnp.ones(3)}, jnp.asarray(step))
    print("step", step, "lr: %.4f" % float(lr))
