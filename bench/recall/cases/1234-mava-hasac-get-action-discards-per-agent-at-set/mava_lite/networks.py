"""A small Gaussian actor (stands for Mava's actor networks and their tfp distributions)."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Normal:
    def __init__(self, loc, scale):
        self.loc, self.scale = loc, scale

    def sample(self, seed):
        return self.loc + self.scale * jax.random.normal(seed, self.loc.shape)

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return jnp.sum(-0.5 * z**2 - jnp.log(self.scale) - 0.5 * jnp.log(2 * jnp.pi), axis=-1)


class Actor(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, obs):
        x = nn.relu(nn.Dense(32)(obs))
        loc = nn.Dense(self.action_dim)(x)
        log_std = self.param("log_std", nn.initializers.zeros, (self.action_dim,))
        return Normal(loc, jnp.exp(log_std))
