import numpyro
import jax.numpy as jnp
from jax.random import PRNGKey


def model_fixed(y_obs=None, rng_key=None):
    x = 1.0
    u_y_dist = numpyro.distributions.Normal(0, 1)
    u_y = numpyro.sample('u_y', u_y_dist, rng_key=rng_key)

    y_dist = numpyro.distributions.Normal(u_y + x, scale=0.0001)
    y = numpyro.sample('y', y_dist, obs=y_obs, rng_key=rng_key)
    return x, u_y, y


if __name__ == "__main__":
    x, u_y, y = model_fixed(rng_key=PRNGKey(0))
    noise_y = (y - (u_y + x)) / 0.0001
    print("u_y:", u_y, "standardised noise of y:", noise_y)
    print("same noise:", bool(jnp.allclose(noise_y, u_y, rtol=1e-2)))
