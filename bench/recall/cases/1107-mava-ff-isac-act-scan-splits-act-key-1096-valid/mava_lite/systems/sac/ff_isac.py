from typing import Any, Callable, Dict, Tuple

import jax
from jax import lax


def make_update_fns(actor_net, step: Callable, rollout_length: int):
    def act(carry: Tuple[Any, Any, Any, Any, Any], _: Any) -> Tuple[Tuple[Any, Any, Any, Any, Any], Dict]:
        """Acting loop: select action, step env, add to buffer."""
        actor_params, obs, env_state, buffer_state, key = carry
        key, act_key = jax.random.split(key)

        pi = actor_net.apply(actor_params, obs)
        action = pi.sample(seed=act_key)

        next_obs, env_state, buffer_state, metrics = step(action, obs, env_state, buffer_state)
        return (actor_params, next_obs, env_state, buffer_state, key), metrics

    scanned_act = lambda state: lax.scan(act, state, None, length=rollout_length)

    return jax.jit(scanned_act)
