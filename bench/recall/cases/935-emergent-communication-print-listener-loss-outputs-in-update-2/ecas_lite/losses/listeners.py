"""Listener losses."""

import jax
import jax.numpy as jnp

from ecas_lite import types


class ListenerLoss:
  """Listener loss (classification over the candidate targets)."""

  def __init__(self, reward_type: str) -> None:
    self._reward_type = reward_type

  def compute_listener_loss(self, rng, games) -> types.ListenerLossOutputs:
    """Computes the Listener loss."""
    output = self._compute_listener_loss(rng=rng, games=games)
    if self._reward_type == 'logprob':
      reward = -output.loss  # [B]
    else:
      reward = output.accuracy  # [B]
    reward = jax.lax.stop_gradient(reward)  # [B]
    global_loss = jnp.sum(output.loss, axis=0)
    global_accuracy = jnp.sum(output.accuracy, axis=0)
    stats = {'listener_loss': global_loss, 'global_accuracy': global_accuracy}
    return types.ListenerLossOutputs(
        loss=global_loss,
        probs=output.probs,
        accuracy=global_accuracy,
        reward=reward,
        stats=stats,
    )

  def _compute_listener_loss(self, rng, games) -> types.ListenerLossOutputs:
    logits = games['listener_logits']
    labels = games['labels']
    log_probs = jax.nn.log_softmax(logits)
    loss = -jnp.take_along_axis(log_probs, labels[:, None], axis=-1)[:, 0]
    accuracy = (jnp.argmax(logits, axis=-1) == labels).astype(jnp.float32)
    return types.ListenerLossOutputs(loss=loss, accuracy=accuracy, probs=jnp.exp(log_probs), stats={})
