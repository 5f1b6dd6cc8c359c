import jax
import jax.numpy as jnp

from craftax_lite.environment_base.wrappers import OptimisticResetVecEnvWrapper


class CounterEnv:
    """A toy environment: the observation is a fresh random draw at reset; an action > 0 ends the episode."""

    def reset(self, key, params=None):
        obs = jax.random.normal(key, (2,))
        return obs, {"obs": obs, "t": jnp.array(0)}

    def step(self, key, state, action, params=None):
        state = {"obs": state["obs"] + 1.0, "t": state["t"] + 1}
        done = action > 0
        return state["obs"], state, jnp.float32(1.0), done, {}


if __name__ == "__main__":
    env = OptimisticResetVecEnvWrapper(CounterEnv(), num_envs=4, reset_ratio=2)
    obs, state = env.reset(jax.random.PRNGKey(0))
    action = jnp.array([1, 1, 0, 0])  # environments 0 and 1 finish
    obs, state, reward, done, info = env.step(jax.random.PRNGKey(1), state, action)
    same = bool(jnp.array_equal(obs[0], obs[1]))
    print(f"both finished environments got the same reset: {same}")
