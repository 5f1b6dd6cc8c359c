"""CQL learner implementation."""

from typing import Any, NamedTuple
from acme_lite.agents.jax.cql.networks import CQLNetworks
import jax
import jax.numpy as jnp
import optax


class TrainingState(NamedTuple):
  """Contains training state for the learner."""
  policy_optimizer_state: optax.OptState
  critic_optimizer_state: optax.OptState
  policy_params: Any
  critic_params: Any
  target_critic_params: Any
  key: jax.Array
  steps: int = 0


class CQLLearner:
  """CQL learner."""

  def __init__(self, networks: CQLNetworks, random_key: jax.Array,
               policy_optimizer: optax.GradientTransformation,
               critic_optimizer: optax.GradientTransformation):

    def update_step(state: TrainingState, observations: jnp.ndarray):
      key, key_policy = jax.random.split(state.key)
      noise = jax.random.normal(key_policy, observations.shape)
      actions = networks.policy_network.apply(state.policy_params,
                                              observations + noise)
      new_state = state._replace(key=key, steps=state.steps + 1)
      return new_state, {'actions': actions}

    # Use the JIT compiler.
    self._update_step = jax.jit(update_step)

    # Create initial state.
    key_policy, key_q, _ = jax.random.split(random_key, 3)
    policy_params = networks.policy_network.init(key_policy)
    policy_optimizer_state = policy_optimizer.init(policy_params)
    critic_params = networks.critic_network.init(key_q)
    critic_optimizer_state = critic_optimizer.init(critic_params)

    self._state = TrainingState(
        policy_optimizer_state=policy_optimizer_state,
        critic_optimizer_state=critic_optimizer_state,
        policy_params=policy_params,
        critic_params=critic_params,
        target_critic_params=critic_params,
        key=random_key,
        steps=0)

  def step(self, observations):
    self._state, metrics = self._update_step(self._state, observations)
    return metrics
