import jax
import jax.numpy as jnp

from mava_lite.networks import Actor
from mava_lite.systems.sac.ff_isac import make_update_fns


def step(action, obs, env_state, buffer_state):
    # a stand-in environment whose observation does not change; the buffer stores the actions
    buffer_state = buffer_state.at[env_state].set(action)
    return obs, env_state + 1, buffer_state, {"action": action}


if __name__ == "__main__":
    n_agents, obs_dim, act_dim, rollout_length = 2, 4, 2, 5
    actor_net = Actor(act_dim)
    obs = jnp.ones((n_agents, obs_dim))
    actor_params = actor_net.init(jax.random.PRNGKey(0), obs)
    scanned_act = make_update_fns(actor_net, step, rollout_length)
    buffer_state = jnp.zeros((rollout_length, n_agents, act_dim))
    act_state = (actor_params, obs, 0, buffer_state, jax.random.PRNGKey(1))
    (_, _, _, buffer_state, _), metrics = scanned_act(act_state)
    actions = metrics["action"]
    print("same action every step:", bool(jnp.all(actions == actions[0])))
