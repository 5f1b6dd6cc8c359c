"""Classification losses."""

from typing import Union

import jax
import jax.numpy as jnp


def kl_divergence(
    log_predictions: jax.typing.ArrayLike,
    targets: jax.typing.ArrayLike,
    axis: Union[int, tuple[int, ...], None] = -1,
    where: Union[jax.typing.ArrayLike, None] = None,
) -> jax.Array:
  """Computes the Kullback-Leibler divergence (relative entropy) loss.

  Args:
    log_predictions: Probabilities of predicted distribution with shape [...,
      dim]. Expected to be in the log-space to avoid underflow.
    targets: Probabilities of target distribution with shape [..., dim].
      Expected to be strictly positive.
    axis: Axis or axes along which to compute.
    where: Elements to include in the computation.
  """
  safe_targets = jnp.where(targets == 0, 1, targets)
  loss = targets * (
      jnp.where(targets == 0, 0, jnp.log(safe_targets)) - log_predictions
  )
  return jnp.sum(loss, axis=axis, where=where)
