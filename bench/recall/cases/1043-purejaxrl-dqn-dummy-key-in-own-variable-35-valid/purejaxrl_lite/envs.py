"""A small stand-in for the gymnax CartPole environment the DQN example makes."""
import jax
import jax.numpy as jnp


class Discrete:
    def __init__(self, n):
        self.n = n

    def sample(self, rng):
        return jax.random.randint(rng, (), 0, self.n)


class CartPole:
    def default_params(self):
        return {"max_steps": 200}

    def action_space(self, params=None):
        return Discrete(2)

    def observation_space(self, params=None):
        return jnp.zeros(4)

    def reset(self, rng, params):
        obs = jax.random.uniform(rng, (4,), minval=-0.05, maxval=0.05)
        return obs, {"obs": obs, "t": 0}

    def step(self, rng, state, action, params):
        obs = state["obs"] + 0.01 * (2 * action - 1)
        return obs, {"obs": obs, "t": state["t"] + 1}, 1.0, False, {}
