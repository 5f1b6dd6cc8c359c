"""
Human vs AI play
"""

import jax
import jax.numpy as jnp

from tree_search import improve_policy_with_mcts, recurrent_fn
from utils import replicate


def play_against_agent(
    agent,
    env,
    num_simulations_per_move: int = 4,
):
    """One agent move of a game of human vs agent."""
    rng_key = jax.random.PRNGKey(42)
    mcts_policy = jax.jit(
        improve_policy_with_mcts,
        static_argnames=("temperature", "num_simulations"),
    )
    batched_env = replicate(env, 1)
    rng_key, rng_key_1 = jax.random.split(rng_key)
    action_weights = mcts_policy(
        agent,
        batched_env,
        recurrent_fn,
        rng_key_1,
        num_simulations=num_simulations_per_move,
        temperature=0.2,
    )
    action = jnp.argmax(action_weights, axis=-1).item()
    print(f"#  Agent selected action {action}")
    return action


if __name__ == "__main__":
    agent = {"w": jnp.eye(3), "v": jnp.ones(3)}
    try:
        play_against_agent(agent, jnp.array([0.0, 1.0, 0.0]))
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
