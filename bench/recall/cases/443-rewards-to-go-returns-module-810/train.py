import jax
import numpy as onp

from agent.ppo import value_loss

if __name__ == "__main__":
    B, T = 16, 200
    rewards = onp.random.uniform(size=(B, T)).astype(onp.float32)
    mask = onp.ones((B, T), dtype=onp.float32)
    values = onp.zeros((B, T), dtype=onp.float32)
    print(value_loss(values, rewards, mask))
    jaxpr = jax.make_jaxpr(value_loss.__wrapped__)(values, rewards, mask)
    print("adds staged:", str(jaxpr).count(" = add "))
