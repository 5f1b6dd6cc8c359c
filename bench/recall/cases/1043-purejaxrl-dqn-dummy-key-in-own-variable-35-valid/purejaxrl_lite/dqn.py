import jax
import jax.numpy as jnp

from purejaxrl_lite.envs import CartPole


def make_train(config):

    config["NUM_UPDATES"] = config["TOTAL_TIMESTEPS"] // config["NUM_ENVS"]

    basic_env, env_params = CartPole(), CartPole().default_params()
    env = basic_env

    vmap_reset = lambda n_envs: lambda rng: jax.vmap(env.reset, in_axes=(0, None))(
        jax.random.split(rng, n_envs), env_params
    )

    def train(rng):

        # INIT ENV
        rng, _rng = jax.random.split(rng)
        init_obs, env_state = vmap_reset(config["NUM_ENVS"])(_rng)

        # INIT BUFFER
        _rng_dummy = jax.random.PRNGKey(0)  # use a dummy rng here
        _action = basic_env.action_space().sample(_rng_dummy)
        _, _env_state = env.reset(_rng_dummy, env_params)
        _obs, _, _reward, _done, _ = env.step(_rng_dummy, _env_state, _action, env_params)
        buffer_state = {"obs": jnp.zeros((config["BUFFER_SIZE"], *_obs.shape))}

        # INIT NETWORK AND OPTIMIZER
        rng, _rng = jax.random.split(rng)
        init_x = jnp.zeros(env.observation_space(env_params).shape)
        network_params = {
            "w": jax.random.normal(_rng, (init_x.shape[0], basic_env.action_space().n))
        }
        return {"network_params": network_params, "buffer_state": buffer_state, "rng": rng}

    return train
