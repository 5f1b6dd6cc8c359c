from typing import Sequence

import flax.linen as nn
import jax.numpy as jnp


class Actor(nn.Module):
    action_dim: int
    net_arch: Sequence[int] = (16,)

    @nn.compact
    def __call__(self, x):
        for n_units in self.net_arch:
            x = nn.relu(nn.Dense(n_units)(x))
        return nn.tanh(nn.Dense(self.action_dim)(x))


class VectorCritic(nn.Module):
    net_arch: Sequence[int] = (16,)
    dropout_rate: float = 0.1
    n_critics: int = 2

    @nn.compact
    def __call__(self, obs, action):
        outs = []
        for _ in range(self.n_critics):
            x = jnp.concatenate([obs, action], -1)
            for n_units in self.net_arch:
                x = nn.Dense(n_units)(x)
                x = nn.Dropout(rate=self.dropout_rate, deterministic=False)(x)
                x = nn.relu(x)
            outs.append(nn.Dense(1)(x))
        return jnp.stack(outs)
