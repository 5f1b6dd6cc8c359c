import functools

import jax
import jax.numpy as jnp
import optax

from optax_lite import contrib


def loss_fn(params):
  return jnp.sum((params["w"] - 3.0) ** 2)


opt = contrib.schedule_free(optax.sgd(1e-1), learning_rate=1e-1)


@functools.partial(jax.jit, donate_argnums=(0,))
def train_step(train_state):
  params, opt_state = train_state
  grads = jax.grad(loss_fn)(params)
  updates, opt_state = opt.update(grads, opt_state, params)
  return optax.apply_updates(params, updates), opt_state


if __name__ == "__main__":
  params = {"w": jnp.zeros(4)}
  train_state = (params, opt.init(params))
  try:
    for _ in range(3):
      train_state = train_step(train_state)
    print("loss:", float(loss_fn(train_state[0])))
  except Exception as e:
    print(type(e).__name__, e)
