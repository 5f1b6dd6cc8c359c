"""Lightweight convenience container for various model implementations."""

import functools
from typing import Any, Callable, Dict, Iterable, Optional, Mapping

from fedjax_lite.core import dataclasses
from fedjax_lite.core.immutabledict import immutabledict
from fedjax_lite.experimental import metrics
import haiku as hk
import jax
import jax.numpy as jnp

EXAMPLE_MASK_KEY = '__mask__'


@dataclasses.dataclass
class Model:
  """Container class for models."""
  init: Callable
  apply_for_train: Callable
  apply_for_eval: Callable
  train_loss: Callable
  eval_metrics: Mapping[str, metrics.Metric]

  @classmethod
  def new(cls, init, apply_for_train, apply_for_eval, train_loss,
          eval_metrics) -> 'Model':
    """Freezes mutable arguments to `Model` to make it `jax.jit` friendly."""
    return cls(init, apply_for_train, apply_for_eval, train_loss,
               immutabledict(eval_metrics))


def create_model_from_haiku(
    transformed_forward_pass: hk.Transformed,
    sample_batch,
    train_loss,
    eval_metrics: Optional[Mapping[str, metrics.Metric]] = None,
    train_kwargs: Optional[Mapping[str, Any]] = None,
    eval_kwargs: Optional[Mapping[str, Any]] = None) -> Model:
  """Creates Model after applying defaults and haiku specific preprocessing."""
  eval_metrics = eval_metrics or {}
  train_kwargs = train_kwargs or {}
  eval_kwargs = eval_kwargs or {}

  @jax.jit
  def init(rng):
    return transformed_forward_pass.init(rng, sample_batch)

  @jax.jit
  def apply_for_train(params, batch, rng=None):
    return transformed_forward_pass.apply(params, rng, batch, **train_kwargs)

  @jax.jit
  def apply_for_eval(params, batch):
    return transformed_forward_pass.apply(params, None, batch, **eval_kwargs)

  return Model.new(init, apply_for_train, apply_for_eval, train_loss,
                   eval_metrics)


@functools.partial(jax.jit, static_argnums=(0, 1))
def _evaluate_model_step(model: Model, params, batch,
                         stat) -> Dict[str, metrics.Stat]:
  """Evaluates model for one batch and returns merged `Stat`."""
  try:
    mask = batch[EXAMPLE_MASK_KEY].astype(jnp.bool_)
  except KeyError:
    mask = jnp.ones([len(next(iter(batch.values())))], dtype=jnp.bool_)
  pred = model.apply_for_eval(params, batch)
  new_stat = {
      k: metrics.evaluate_batch(metric, batch, pred, mask)
      for k, metric in model.eval_metrics.items()
  }
  return jax.tree_util.tree_map(
      lambda a, b: a.merge(b),
      stat,
      new_stat,
      is_leaf=lambda v: isinstance(v, metrics.Stat))


def evaluate_model(model: Model, params,
                   batches: Iterable) -> Dict[str, jnp.ndarray]:
  """Evaluates model for multiple batches and returns final results."""
  stat = {k: metric.zero() for k, metric in model.eval_metrics.items()}
  for batch in batches:
    stat = _evaluate_model_step(model, params, batch, stat)
  return jax.tree_util.tree_map(
      lambda x: x.result(), stat, is_leaf=lambda v: isinstance(v, metrics.Stat))
