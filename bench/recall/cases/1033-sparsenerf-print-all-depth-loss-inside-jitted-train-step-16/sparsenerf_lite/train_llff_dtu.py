"""Training script (the optimization step)."""
import jax
from jax import random
import jax.numpy as jnp


def train_step(model, rng, variables, batch, learning_rate):
  """One optimization step."""
  rng, key, key2 = random.split(rng, 3)

  def loss_fn(variables):
    renderings = model.apply(variables, batch['rays'])

    losses = []
    all_depth_loss = []

    for rendering in renderings:
      losses.append(((rendering['rgb'] - batch['rgb'][..., :3])**2).mean())
      depth = rendering['distance_mean']
      depth = depth.reshape(-1, 4).transpose()  # two pairs of points, so here is 4
      margin1 = 1e-4
      depth_loss = jnp.mean(jnp.maximum(depth[0, :] - depth[1, :] + margin1, 0))
      all_depth_loss.append(depth_loss)

    losses = jnp.array(losses)
    all_depth_loss = jnp.array(all_depth_loss)
    print('all_depth_loss:', all_depth_loss)
    loss = losses[-1] + 0.1 * jnp.sum(losses[:-1]) + 0.5 * all_depth_loss[-1]
    return loss

  loss, grad = jax.value_and_grad(loss_fn)(variables)
  new_variables = jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, variables, grad)
  return new_variables, loss, rng
