from jax import numpy as np
from jax import jit, lax, make_jaxpr

import numpy as onp


@jit
def scan_rewards_to_go(rewards, mask, gamma=0.99):
    masked_rewards = rewards * mask  # (B, T)

    reversed_rewards = np.flip(masked_rewards, axis=1)  # (B, T) flipped on time.
    rrt = np.transpose(reversed_rewards)  # (T, B) transpose to scan over time.

    def discounting_add(carry, reward):
        x = reward + (gamma * carry)
        return x, x

    _, ys = lax.scan(discounting_add,
                     np.zeros_like(rrt[0], dtype=np.float32),
                     rrt.astype(np.float32))

    # ys is (T, B) and T is in reverse order.
    return np.flip(np.transpose(ys), axis=1)


if __name__ == "__main__":
    B, T = 16, 200
    rewards = onp.random.uniform(size=(B, T)).astype(onp.float32)
    mask = onp.ones((B, T), dtype=onp.float32)
    scan_rewards_to_go(rewards, mask).block_until_ready()
    jaxpr = make_jaxpr(scan_rewards_to_go.__wrapped__)(rewards, mask)
    print("adds staged:", str(jaxpr).count(" = add "))
