"""Metrics (MeanStat, Metric, Accuracy and evaluate_batch only)."""
import abc
import functools
from typing import Optional

from fedjax_lite.core import dataclasses
import jax
import jax.numpy as jnp


class Stat(metaclass=abc.ABCMeta):

  @abc.abstractmethod
  def result(self) -> jnp.ndarray:
    """Calculates the metric value from the aggregated statistics."""

  @abc.abstractmethod
  def merge(self, other: 'Stat') -> 'Stat':
    """Merges two Stat objects into a new Stat with merged statistics."""

  @abc.abstractmethod
  def reduce(self, axis: Optional[int] = 0):
    """Reduces a higher rank statistic along a given axis."""


@dataclasses.dataclass
class MeanStat(Stat):
  accum: jnp.ndarray
  weight: jnp.ndarray

  @classmethod
  def new(cls, accum, weight) -> 'MeanStat':
    weight = jnp.maximum(0, jnp.asarray(weight))
    accum = jnp.where(weight == 0, 0, jnp.asarray(accum))
    return cls(accum, weight)

  def result(self) -> jnp.ndarray:
    return jnp.where(self.weight == 0, 0, self.accum / self.weight)

  def merge(self, other: 'MeanStat') -> 'MeanStat':
    accum = self.accum + other.accum
    weight = self.weight + other.weight
    return MeanStat.new(accum, weight)

  def reduce(self, axis: Optional[int] = 0):
    return MeanStat.new(
        jnp.sum(self.accum, axis=axis), jnp.sum(self.weight, axis=axis))


class Metric(metaclass=abc.ABCMeta):

  @abc.abstractmethod
  def zero(self) -> Stat:
    """Returns a Stat such that merging with it is an identity operation."""

  @abc.abstractmethod
  def evaluate_example(self, example, prediction) -> Stat:
    """Evaluates a single example."""


def apply_mask(mask: jnp.ndarray, a: jnp.ndarray,
               b: jnp.ndarray) -> jnp.ndarray:
  """Applies mask on the leading dimension."""
  rank = max(len(a.shape), len(b.shape))
  return jnp.where(jnp.expand_dims(mask, tuple(range(1, rank))), a, b)


def evaluate_batch(metric: Metric,
                   batch_example,
                   batch_prediction,
                   batch_mask: Optional[jnp.ndarray] = None) -> Stat:
  batch_stat = jax.vmap(metric.evaluate_example)(batch_example,
                                                 batch_prediction)
  if batch_mask is not None:
    batch_stat = jax.tree_util.tree_map(
        functools.partial(apply_mask, batch_mask), batch_stat, metric.zero())
  return batch_stat.reduce()


@dataclasses.dataclass
class Accuracy(Metric):
  target_key: str = 'y'
  pred_key: Optional[str] = None

  def zero(self) -> MeanStat:
    return MeanStat.new(0., 0.)

  def evaluate_example(self, example, prediction) -> MeanStat:
    target = example[self.target_key]
    pred = prediction if self.pred_key is None else prediction[self.pred_key]
    correct = (target == jnp.argmax(pred, axis=-1)).astype(jnp.float32)
    return MeanStat.new(correct, 1.)
