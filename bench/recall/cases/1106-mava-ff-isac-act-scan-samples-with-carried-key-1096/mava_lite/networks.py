from typing import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp


class Normal:
    """Stand-in for the distrax distribution the actor head returns."""

    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale

    def sample(self, seed):
        return self.loc + self.scale * jax.random.normal(seed, self.loc.shape)


class Actor(nn.Module):
    action_dim: int
    layer_sizes: Sequence[int] = (16,)

    @nn.compact
    def __call__(self, obs):
        x = obs
        for size in self.layer_sizes:
            x = nn.relu(nn.Dense(size)(x))
        loc = nn.Dense(self.action_dim)(x)
        log_std = self.param("log_std", nn.initializers.zeros, (self.action_dim,))
        return Normal(jnp.tanh(loc), jnp.exp(log_std))
