import jax
import jax.numpy as jnp

from idqn_lite.environments.atari import AtariEnv
from idqn_lite.networks.base_q import BaseQ
from idqn_lite.sample_collection.exploration import EpsilonGreedySchedule

if __name__ == "__main__":
    env = AtariEnv(n_actions=6)
    q = BaseQ(n_actions=6)
    q_params = jnp.ones((6, 4))
    with jax.debug_key_reuse(True):
        schedule = EpsilonGreedySchedule(1.0, 0.1, 1000, jax.random.key(0), 0)
        for _ in range(3):
            env.collect_one_sample(q, q_params, schedule)
    print("actions:", env.actions)
