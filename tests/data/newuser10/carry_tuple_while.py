import jax
import jax.numpy as jnp


def sample_env(key, obs):
    return obs + jax.random.normal(key, obs.shape)


def rollout(steps):
    key = jax.random.PRNGKey(42)
    carry = (jnp.zeros(3), key)
    t = 0
    while t < steps:
        obs = sample_env(carry[1], carry[0])
        carry = (obs, jax.random.split(carry[1])[0])
        t += 1
    return carry
