from jax import numpy as np


def rewards_to_go(rewards, mask, gamma=0.99):
    r"""Computes rewards to go (B, T) from rewards and mask of shape (B, T)."""
    B, T = rewards.shape  # pylint: disable=invalid-name,unused-variable

    masked_rewards = rewards * mask  # (B, T)

    # Compute r2g_{T-1} at the start and then compute backwards in time.
    r2gs = [masked_rewards[:, -1]]

    # Go from T-2 down to 0.
    for t in reversed(range(T - 1)):
        r2gs.append(masked_rewards[:, t] + (gamma * r2gs[-1]))

    return np.flip(np.stack(r2gs, axis=1), axis=1)
