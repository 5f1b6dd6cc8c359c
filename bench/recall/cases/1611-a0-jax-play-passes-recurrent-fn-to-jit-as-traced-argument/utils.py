"""Useful functions."""

import jax
import jax.numpy as jnp


def batched_policy(agent, states):
    """Apply a policy to a batch of states.

    Also return the updated agent.
    """
    return agent, (states @ agent["w"], jnp.tanh(states @ agent["v"]))


def replicate(value, repeat: int):
    """Replicate along the first axis."""
    return jax.tree_util.tree_map(lambda x: jnp.stack([x] * repeat), value)
