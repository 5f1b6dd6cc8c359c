import jax
import jax.numpy as jnp

from ecas_lite.losses.listeners import ListenerLoss


class SpeakerListenerGame:
  def __init__(self):
    self._listener_loss = ListenerLoss(reward_type='logprob')

  def _loss(self, params, rng, games):
    games = dict(games, listener_logits=games['features'] @ params['w'])
    listener_outputs = self._listener_loss.compute_listener_loss(rng, games)
    print(listener_outputs)
    return listener_outputs.loss, listener_outputs.stats

  def update(self, params, rng, games):
    grads, stats = jax.grad(self._loss, has_aux=True)(params, rng, games)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    return params, stats
