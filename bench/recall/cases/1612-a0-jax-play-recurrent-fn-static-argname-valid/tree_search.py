"""Monte Carlo tree search (a one-step search stands in for mctx)."""

import jax
import jax.numpy as jnp

from utils import batched_policy


def recurrent_fn(params, rng_key, action, embedding):
    """One simulation step in MCTS."""
    del rng_key
    agent = params
    state = embedding + jax.nn.one_hot(action, embedding.shape[-1])
    _, (prior_logits, value) = batched_policy(agent, state)
    return prior_logits, value


def improve_policy_with_mcts(
    agent,
    env,
    rng_key,
    rec_fn,
    num_simulations: int,
    temperature: float = 1.0,
):
    """Improve agent policy using MCTS.

    Returns:
        An improved policy.
    """
    state = env
    _, (prior_logits, value) = batched_policy(agent, state)
    for _ in range(num_simulations):
        rng_key, key = jax.random.split(rng_key)
        action = jax.random.categorical(key, prior_logits / temperature)
        logits, value = rec_fn(agent, key, action, state)
        prior_logits = prior_logits + logits
    return jax.nn.softmax(prior_logits / temperature)
