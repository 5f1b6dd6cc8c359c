import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

from vmoe_lite.train import trainer


class Model(nn.Module):

  @nn.compact
  def __call__(self, x):
    x = nn.Dropout(0.5, deterministic=False)(x)
    return nn.Dense(3)(x), {}


def loss_fn(logits, labels):
  return optax.softmax_cross_entropy(logits, labels)


if __name__ == "__main__":
  jax.config.update("jax_debug_key_reuse", True)
  model = Model()
  images = jnp.ones((4, 5))
  labels = jax.nn.one_hot(jnp.arange(4) % 3, 3)
  params = model.init({'params': jax.random.key(0), 'dropout': jax.random.key(1)},
                      images)['params']
  state = trainer.TrainState.create(apply_fn=model.apply, params=params,
                                    tx=optax.sgd(0.1),
                                    rngs={'dropout': jax.random.key(2)})
  step = jax.jit(functools.partial(trainer.train_step, loss_fn=loss_fn,
                                   microsteps=2))
  state, metrics = step(state, images, labels)
  print("loss: %.3f" % float(metrics['total_loss']))
