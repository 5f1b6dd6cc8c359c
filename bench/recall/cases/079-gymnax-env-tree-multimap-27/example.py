import jax

from gymnax_lite.environments.environment import Pendulum

if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    rng, key_reset, key_act, key_step = jax.random.split(rng, 4)
    env = Pendulum()
    obs, state = env.reset(key_reset)
    action = jax.random.uniform(key_act, (), minval=-2.0, maxval=2.0)
    n_obs, n_state, reward, done, _ = env.step(key_step, state, action)
