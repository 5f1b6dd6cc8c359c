from dataclasses import dataclass
from functools import partial
from typing import Any, Tuple

import jax
import jax.numpy as jnp


@dataclass
class TD3BCConfig:
    # GENERAL
    algo: str = "TD3-BC"
    seed: int = 42
    # TRAINING
    batch_size: int = 256
    discount: float = 0.99
    tau: float = 0.005
    policy_noise: float = 0.2
    noise_clip: float = 0.5
    alpha: float = 2.5
    hidden_dims: Tuple[int, ...] = (256, 256)


def target_q(reward, done, next_q, discount):
    return reward + discount * (1.0 - done) * next_q


@partial(jax.jit, static_argnames=("config",))
def update_critic(critic_params: Any, batch: dict, rng: jax.Array, config: TD3BCConfig):
    noise = jnp.clip(
        jax.random.normal(rng, batch["actions"].shape) * config.policy_noise,
        -config.noise_clip,
        config.noise_clip,
    )
    next_q = jnp.sum(critic_params["w"] * (batch["actions"] + noise), axis=-1)
    target = target_q(batch["rewards"], batch["dones"], next_q, config.discount)
    q = jnp.sum(critic_params["w"] * batch["actions"], axis=-1)
    return jnp.mean((q - jax.lax.stop_gradient(target)) ** 2)


if __name__ == "__main__":
    config = TD3BCConfig()
    rng = jax.random.PRNGKey(config.seed)
    batch = {
        "actions": jnp.ones((4, 2)),
        "rewards": jnp.ones(4),
        "dones": jnp.zeros(4),
    }
    params = {"w": jnp.ones(2)}
    print("critic loss:", update_critic(params, batch, rng, config))
