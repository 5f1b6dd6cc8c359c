"""Standard trainer for the init2winit project (reduced)."""
import functools

import jax
import jax.numpy as jnp
import optax

_GRAD_CLIP_EPS = 1e-6


def l2_regularization(params, l2_decay_rank_threshold):
  leaves = [x for x in jax.tree.leaves(params) if x.ndim >= l2_decay_rank_threshold]
  return sum(jnp.sum(x ** 2) for x in leaves)


def update(
    optimizer_state,
    params,
    batch_stats,
    metrics_state,
    batch,
    step,
    lr,
    rng,
    running_train_cost,
    training_cost,
    grad_clip,
    optimizer_update_fn,
    metrics_update_fn):
  """Single step of the training loop.

  This function will later be jitted so we keep it outside of the Trainer class
  to avoid the temptation to introduce side-effects.
  """
  # `jax.random.split` is very slow outside the train step, so instead we do a
  # `jax.random.fold_in` here.
  rng = jax.random.fold_in(rng, step)

  def opt_cost(params):
    return training_cost(
        params, batch=batch, batch_stats=batch_stats, dropout_rng=rng)

  grad_fn = jax.value_and_grad(opt_cost, has_aux=True)
  (cost_value, new_batch_stats), grad = grad_fn(params)
  new_batch_stats = new_batch_stats.get('batch_stats', None)

  grad_norm = jnp.sqrt(l2_regularization(grad, 0))
  if grad_clip:
    scaled_grad = jax.tree.map(
        lambda x: x / (grad_norm + _GRAD_CLIP_EPS) * grad_clip, grad)
    grad = jax.lax.cond(grad_norm > grad_clip, lambda _: scaled_grad,
                        lambda _: grad, None)
  model_updates, new_optimizer_state = optimizer_update_fn(
      grad, optimizer_state, params)
  model_updates = jax.tree.map(lambda u: lr * u, model_updates)

  update_norm = jnp.sqrt(l2_regularization(model_updates, 0))
  new_params = optax.apply_updates(params, model_updates)

  new_metrics_state = None
  if metrics_state is not None:
    new_metrics_state = metrics_update_fn(metrics_state, step, cost_value)

  return (new_optimizer_state, new_params, new_batch_stats,
          new_metrics_state, running_train_cost + cost_value,
          grad_norm, update_norm)


class Trainer:

  def __init__(self, lr_fn):
    self._optimizer_init_fn = None
    self._update_jitted = None
    self._lr_fn = lr_fn
    self._metrics_state = None
    self._metrics_update_fn = None

  def init_optimizer_state(self, params):
    tx = optax.sgd(1.0)
    self._optimizer_init_fn, self._optimizer_update_fn = tx.init, tx.update
    unreplicated_optimizer_state = self._optimizer_init_fn(params)
    return unreplicated_optimizer_state, self._optimizer_update_fn

  def update_params(self,
                    model,
                    hps,
                    optimizer_state,
                    params,
                    batch_stats,
                    metrics_state,
                    batch,
                    global_step,
                    rng,
                    sum_train_cost):
    """Sets up the train state."""

    optimizer_state, _ = optimizer_state

    if not self._update_jitted:
      update_fn = functools.partial(
          update,
          training_cost=model.training_cost,
          grad_clip=hps.get('grad_clip'),
          optimizer_update_fn=self._optimizer_update_fn,
          metrics_update_fn=self._metrics_update_fn,
      )

      # We donate optimizer_state, params and batch_stats in jitted computation.
      # This helps reduce memory usage as outputs corresponding to these inputs
      # arguments can re-use the memory.
      self._update_jitted = jax.jit(
          update_fn,
          donate_argnums=(0, 1, 2),
      )

    lr = self._lr_fn(global_step)
    # It looks like we are reusing an rng key, but we aren't.
    (
        optimizer_state,
        params,
        batch_stats,
        metrics_state,
        sum_train_cost,
        grad_norm,
        update_norm,
    ) = self._update_jitted(
        optimizer_state,
        params,
        batch_stats,
        self._metrics_state,
        batch,
        global_step,
        lr,
        rng,
        sum_train_cost,
    )

    return (
        (optimizer_state, self._optimizer_update_fn),
        params,
        batch_stats,
        metrics_state,
        sum_train_cost,
        grad_norm,
        update_norm,
    )
