import os

import flax.linen as nn
import jax
import jax.numpy as jnp

from ksim_lite.task.ppo import PPOConfig, PPOTask


class ActorCritic(nn.Module):
    num_actions: int = 4

    @nn.compact
    def __call__(self, obs):
        x = nn.tanh(nn.Dense(32)(obs))
        return nn.Dense(self.num_actions)(x), nn.Dense(1)(x)


if __name__ == "__main__":
    os.environ["DEBUG"] = "1"  # the user debugs the loss
    task = PPOTask(PPOConfig())
    model = ActorCritic()
    obs = jax.random.normal(jax.random.PRNGKey(0), (16, 8))
    params = model.init(jax.random.PRNGKey(1), obs)
    action = jax.random.randint(jax.random.PRNGKey(2), (16,), 0, 4)
    init_lp = jnp.full((16,), -jnp.log(4.0))
    for step in range(3):
        advantages = jax.random.normal(jax.random.PRNGKey(10 + step), (16,))
        returns = jax.random.normal(jax.random.PRNGKey(20 + step), (16,))
        loss, metrics = task.compute_loss(model, params, obs, action, init_lp, advantages, returns)
    print("done: 3 loss evaluations")
