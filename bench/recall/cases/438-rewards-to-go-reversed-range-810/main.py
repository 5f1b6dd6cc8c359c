from jax import numpy as np
from jax import jit, make_jaxpr

import numpy as onp


@jit
def rewards_to_go(rewards, mask, gamma=0.99):
    r"""Computes rewards to go.
    Args:
      rewards: np.ndarray of shape (B, T) of rewards.
      mask: np.ndarray of shape (B, T) of mask for the rewards.
      gamma: float, discount factor.

    Returns:
      rewards to go, np.ndarray of shape (B, T).
    """
    B, T = rewards.shape  # pylint: disable=invalid-name,unused-variable

    masked_rewards = rewards * mask  # (B, T)

    # Compute r2g_{T-1} at the start and then compute backwards in time.
    r2gs = [masked_rewards[:, -1]]

    # Go from T-2 down to 0.
    for t in reversed(range(T - 1)):
        r2gs.append(masked_rewards[:, t] + (gamma * r2gs[-1]))

    # The list should have length T.
    assert T == len(r2gs)

    # First we stack them in the correct way to make it (B, T), but these are
    # still from newest (T-1) to oldest (0), so then we flip it on time axis.
    return np.flip(np.stack(r2gs, axis=1), axis=1)


if __name__ == "__main__":
    B, T = 16, 200
    rewards = onp.random.uniform(size=(B, T)).astype(onp.float32)
    mask = onp.ones((B, T), dtype=onp.float32)
    rewards_to_go(rewards, mask).block_until_ready()
    jaxpr = make_jaxpr(rewards_to_go.__wrapped__)(rewards, mask)
    print("adds staged:", str(jaxpr).count(" = add "))
