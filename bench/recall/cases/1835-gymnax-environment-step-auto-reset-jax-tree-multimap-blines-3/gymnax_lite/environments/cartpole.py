from typing import NamedTuple

import jax
import jax.numpy as jnp

from gymnax_lite.environments.environment import Environment


class EnvState(NamedTuple):
    x: jnp.ndarray
    x_dot: jnp.ndarray
    time: jnp.ndarray


class EnvParams(NamedTuple):
    force_mag: float = 10.0
    tau: float = 0.02
    x_threshold: float = 2.4
    max_steps_in_episode: int = 500


class CartPole(Environment):
    @property
    def default_params(self):
        return EnvParams()

    def step_env(self, key, state, action, params):
        force = params.force_mag * action - params.force_mag * (1 - action)
        x_dot = state.x_dot + params.tau * force
        x = state.x + params.tau * x_dot
        state = EnvState(x, x_dot, state.time + 1)
        done = jnp.logical_or(jnp.abs(x) > params.x_threshold,
                              state.time >= params.max_steps_in_episode)
        return self.get_obs(state), state, jnp.float32(1.0), done, {}

    def reset_env(self, key, params):
        init = jax.random.uniform(key, minval=-0.05, maxval=0.05, shape=(2,))
        state = EnvState(init[0], init[1], jnp.int32(0))
        return self.get_obs(state), state

    def get_obs(self, state):
        return jnp.array([state.x, state.x_dot])
