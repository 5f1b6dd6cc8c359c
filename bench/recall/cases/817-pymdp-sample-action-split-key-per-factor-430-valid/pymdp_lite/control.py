"""Policy construction, expected free energy, and action sampling utilities."""

import itertools
from typing import Sequence

import jax.numpy as jnp
import jax.tree_util as jtu
from jax import random as jr
from jaxtyping import Array

from pymdp_lite.maths import log_stable


def construct_policies(num_controls: Sequence[int]) -> Array:
    """All one-step policies: every combination of one action per control factor."""
    return jnp.array(list(itertools.product(*[range(n) for n in num_controls])))[:, None, :]


def get_marginals(q_pi: Array, policies: Array, num_controls: Sequence[int]) -> list[Array]:
    """
    Computes the marginal posterior(s) over actions by integrating their posterior probability under the policies that they appear within.
    """
    num_factors = len(num_controls)

    action_marginals = []
    for factor_i in range(num_factors):
        actions = jnp.arange(num_controls[factor_i])[:, None]
        action_marginals.append(jnp.where(actions==policies[:, 0, factor_i], q_pi, 0).sum(-1))

    return action_marginals


def sample_action(
    policies: Array,
    num_controls: Sequence[int],
    q_pi: Array,
    action_selection: str = "deterministic",
    alpha: float = 16.0,
    rng_key: Array | None = None,
) -> Array:
    """
    Samples an action from posterior marginals, one action per control factor.
    """

    marginal = get_marginals(q_pi, policies, num_controls)

    if action_selection == 'deterministic':
        selected_policy = jtu.tree_map(lambda x: jnp.argmax(x, -1), marginal)
    elif action_selection == 'stochastic':
        if rng_key is None:
            raise ValueError("rng_key is required for stochastic sampling")
        keys = list(jr.split(rng_key, len(marginal)))
        logits = lambda x: alpha * log_stable(x)
        selected_policy = jtu.tree_map(
            lambda x, k: jr.categorical(k, logits(x)), marginal, keys
        )
    else:
        raise NotImplementedError

    return jnp.array(selected_policy)
