"""Networks definitions for the CQL agent."""
import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class FeedForwardNetwork:
  init: Callable
  apply: Callable


@dataclasses.dataclass
class CQLNetworks:
  """Network and pure functions for the CQL agent."""
  policy_network: FeedForwardNetwork
  critic_network: FeedForwardNetwork


def make_networks(obs_size: int, action_size: int) -> CQLNetworks:

  def _linear(n_in, n_out):
    def init(key):
      return {'w': jax.random.normal(key, (n_in, n_out)), 'b': jnp.zeros(n_out)}

    def apply(params, x):
      return x @ params['w'] + params['b']

    return FeedForwardNetwork(init=init, apply=apply)

  return CQLNetworks(
      policy_network=_linear(obs_size, action_size),
      critic_network=_linear(obs_size + action_size, 1))
