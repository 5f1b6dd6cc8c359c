from typing import Dict

import jax.numpy as jnp

from idqn_lite.networks.base_q import BaseQ
from idqn_lite.sample_collection.exploration import EpsilonGreedySchedule


class AtariEnv:
    """An environment stand-in: the state is a vector, a step moves it by the action."""

    def __init__(self, n_actions: int) -> None:
        self.n_actions = n_actions
        self.state = jnp.zeros(4)
        self.actions = []

    def step(self, action):
        self.actions.append(int(action))
        self.state = self.state + action
        return self.state, 0.0, False, None

    def collect_one_sample(
        self,
        q: BaseQ,
        q_params: Dict,
        exploration_schedule: EpsilonGreedySchedule,
    ):
        if exploration_schedule.explore():
            action = q.random_action(exploration_schedule.key)
        else:
            action = q.best_action(exploration_schedule.key, q_params, self.state)

        next_state, reward, absorbing, _ = self.step(action)
        return reward, absorbing
