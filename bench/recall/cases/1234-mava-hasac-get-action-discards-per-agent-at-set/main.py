from types import SimpleNamespace

import jax
import jax.numpy as jnp

from mava_lite.networks import Actor
from mava_lite.systems.sac.ff_hasac import get_action

if __name__ == "__main__":
    env = SimpleNamespace(num_agents=3, action_dim=2)
    batch_size, obs_dim = 4, 5
    actor_net = Actor(action_dim=env.action_dim)
    keys = jax.random.split(jax.random.PRNGKey(0), env.num_agents)
    # heterogeneous agents: one parameter set per agent, stacked on the leading axis
    actor_params = jax.vmap(lambda k: actor_net.init(k, jnp.zeros((1, obs_dim))))(keys)
    obs = jax.random.normal(jax.random.PRNGKey(1), (batch_size, env.num_agents, obs_dim))

    act_keys = jax.random.split(jax.random.PRNGKey(2), env.num_agents)
    @jax.jit
    def act(actor_params, act_keys, obs):
        return get_action(actor_params, actor_net, act_keys, env, obs, batch_size)

    actions, log_probs = act(actor_params, act_keys, obs)
    print("actions all zero:", bool(jnp.all(actions == 0)), "log probs all zero:", bool(jnp.all(log_probs == 0)))
