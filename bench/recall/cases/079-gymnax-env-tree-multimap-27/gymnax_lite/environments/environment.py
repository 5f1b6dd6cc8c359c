import jax
import jax.numpy as jnp


class Pendulum:
    def reset(self, key):
        state = {"theta": jax.random.uniform(key, (), minval=-3.0, maxval=3.0), "t": jnp.array(0)}
        return self.get_obs(state), state

    def get_obs(self, state):
        return jnp.array([jnp.cos(state["theta"]), jnp.sin(state["theta"])])

    def step_env(self, key, state, action):
        state_st = {"theta": state["theta"] + 0.05 * action, "t": state["t"] + 1}
        return self.get_obs(state_st), state_st, -state_st["theta"] ** 2, state_st["t"] >= 200, {}

    def step(self, key, state, action):
        key, key_reset = jax.random.split(key)
        obs_st, state_st, reward, done, info = self.step_env(key, state, action)
        obs_re, state_re = self.reset(key_reset)
        # Auto-reset environment based on termination
        state = jax.tree_multimap(
            lambda x, y: jax.lax.select(done, x, y), state_re, state_st
        )
        obs = jax.lax.select(done, obs_re, obs_st)
        return obs, state, reward, done, info
