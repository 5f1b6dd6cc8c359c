from functools import partial

import jax
import jax.numpy as jnp

params_pendulum = {
    "max_speed": 8.0,
    "max_torque": 2.0,
    "dt": 0.05,
    "g": 10.0,
    "m": 1.0,
    "l": 1.0,
    "max_steps_in_episode": 200,
    "obs_shape": (3,),
}


@partial(jax.jit, static_argnums=(1,))
def reset(rng_input, params):
    """Reset environment state by sampling theta, theta_dot."""
    high = jnp.array([jnp.pi, 1])
    state = jax.random.uniform(rng_input, shape=(2,), minval=-high, maxval=high)
    obs = jnp.zeros(params["obs_shape"])
    obs = obs.at[0].set(jnp.cos(state[0])).at[1].set(jnp.sin(state[0])).at[2].set(state[1])
    return obs, state
