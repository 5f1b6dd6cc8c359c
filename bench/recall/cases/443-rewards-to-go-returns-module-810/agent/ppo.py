import jax
from jax import numpy as np

from agent.returns import rewards_to_go


@jax.jit
def value_loss(values, rewards, mask):
    r2g = rewards_to_go(rewards, mask)
    return np.mean((values - r2g) ** 2)
