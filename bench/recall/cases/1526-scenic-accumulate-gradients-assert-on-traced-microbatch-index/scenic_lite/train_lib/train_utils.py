"""Utility functions for Training."""

from typing import Any, Callable, Dict, Optional, Tuple

from absl import logging
import jax
import jax.numpy as jnp

# Stand-in for scenic's flax TrainState dataclass: only `.params` is read here.
TrainState = Any


def accumulate_gradients(
    compute_gradient_fn: Callable[
        [TrainState, Dict[str, jnp.ndarray], jnp.ndarray], Tuple[Any,
                                                                 jnp.ndarray]],
    metrics_fn: Callable[[jnp.ndarray, Dict[str, jnp.ndarray]],
                         Dict[str, Tuple[float, int]]], train_state: TrainState,
    batch: Dict[str, jnp.ndarray], dropout_rng: jnp.ndarray,
    accum_steps: Optional[int]
) -> Tuple[Optional[jnp.ndarray], jnp.ndarray, jnp.ndarray, Dict[str, Tuple[
    float, int]]]:
  """Accumulate gradients over multiple steps.

  This enables training with larger effective batch sizes.
  Note that currently, gradient accumulation is not supported when the
  `model_state` is used, e.g., for models that have batch normalization and
  store batch statistics in the `model_state`.

  Note that if `accum_steps` <= 1 or is None, then the gradient of a single step
  is simply returned.

  Args:
    compute_gradient_fn: Gradient function, e.g., `jax.value_and_grad(
      training_loss_fn, ...).
    metrics_fn: A metrics function that given logits and batch of data,
      calculates the metrics.
    train_state: An instance of TrainState that has the parameters of the model,
      state of the model, etc.
    batch: A single batch of data. The buffer of this argument can be donated to
      the computation.
    dropout_rng: JAX rng key used for dropout.
    accum_steps: Number of accumulating steps (number of micro batches). When
      set to None or =<1, no accumulation is done.

  Returns:
    A tuple of model_state (e.g., batch statistics),
      computed gradients, training loss, and calculated metrics.
  """
  params = train_state.params
  if accum_steps and accum_steps > 1:
    batch_size = next(iter(batch.values())).shape[0]
    microbatch_size = batch_size // accum_steps
    if batch_size % accum_steps != 0:
      raise ValueError(
          f'Bad accum_steps {accum_steps} for batch size {batch_size}')
    logging.info('Using microbatches: %d microbatches, %d size', accum_steps,
                 microbatch_size)

    def get_microbatch(batch: Dict[str, jnp.ndarray],
                       idx: int) -> Dict[str, jnp.ndarray]:
      """Fetch microbatch slice from the given batch."""
      assert microbatch_size * idx < batch_size
      return jax.tree_util.tree_map(
          lambda x: x.reshape((-1, microbatch_size) + x.shape[1:])[idx], batch)

    def per_microbatch_compute_gradient_fn(
        loop_cnt: int, loop_state: Tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray,
                                         Dict[str, Tuple[float, int]]]
    ) -> Tuple[jnp.ndarray, jnp.ndarray, Dict[str, Tuple[float, int]],
               jnp.ndarray]:
      dropout_rng, grad_accum, train_loss_acc, metrics_acc = loop_state
      dropout_rng, sub_dropout_rng = jax.random.split(dropout_rng)
      mbatch = get_microbatch(batch, loop_cnt)
      (train_loss,
       (_, mlogits)), grad = compute_gradient_fn(params, mbatch,
                                                 sub_dropout_rng)
      metrics = metrics_fn(mlogits, mbatch)
      # Accumulate gradients and metrics.
      grad = jax.tree_util.tree_map(jnp.add, grad_accum, grad)
      metrics = jax.tree_util.tree_map(jnp.add, metrics, metrics_acc)
      train_loss = jax.tree_util.tree_map(jnp.add, train_loss, train_loss_acc)
      return dropout_rng, grad, train_loss, metrics

    # Initialize gradient accumulation loop state.
    dropout_rng, sub_dropout_rng = jax.random.split(dropout_rng)
    init_mbatch = get_microbatch(batch, 0)
    (init_train_loss,
     (model_state,
      init_logits)), grad_init = compute_gradient_fn(params, init_mbatch,
                                                     sub_dropout_rng)
    if jax.tree_util.tree_leaves(model_state):
      # If the model_state is not empty.
      raise ValueError('Gradient accumulation is not supported when the '
                       'model_state is in used (e.g. models w/ batch norm).')

    metrics_init = metrics_fn(init_logits, init_mbatch)
    del init_logits, init_mbatch

    # Run gradient accumulation loop.
    loop_init = (dropout_rng, grad_init, init_train_loss, metrics_init)
    _, grad_acc, train_loss, metrics_acc = jax.lax.fori_loop(
        1, accum_steps, per_microbatch_compute_gradient_fn, loop_init)
    grad_acc = jax.tree_util.tree_map(lambda x: x / accum_steps, grad_acc)
    train_loss = jax.tree_util.tree_map(lambda x: x / accum_steps, train_loss)
    return model_state, grad_acc, train_loss, metrics_acc
  else:
    (train_loss, (model_state,
                  logits)), grad = compute_gradient_fn(params, batch,
                                                       dropout_rng)
    metrics = metrics_fn(logits, batch)
    return model_state, grad, train_loss, metrics
