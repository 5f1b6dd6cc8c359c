import jax
import jax.numpy as jnp


def get_action(actor_params, actor_net, keys, env, obs, batch_size):
    actions = jnp.zeros((batch_size, env.num_agents, env.action_dim))
    log_std = jnp.zeros((batch_size, env.num_agents))

    for agent in range(env.num_agents):
        actor_params_per_agent = jax.tree_util.tree_map(
            lambda x, agent=agent: x[agent], actor_params
        )
        obs_per_agent = jax.tree_util.tree_map(lambda x, agent=agent: x[:, agent], obs)

        pi = actor_net.apply(actor_params_per_agent, obs_per_agent)
        action = pi.sample(seed=keys[agent])
        actions.at[:, agent].set(action)
        log_std.at[:, agent].set(pi.log_prob(action))

    return actions, log_std
