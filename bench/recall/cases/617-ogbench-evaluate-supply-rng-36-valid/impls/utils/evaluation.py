import jax
import jax.numpy as jnp
import numpy as np


def supply_rng(f, rng=jax.random.PRNGKey(0)):
    """Helper function to split the random number generator key before each call to the function."""

    def wrapped(*args, **kwargs):
        nonlocal rng
        rng, key = jax.random.split(rng)
        return f(*args, seed=key, **kwargs)

    return wrapped


def evaluate(
    agent,
    num_eval_episodes=50,
    episode_length=200,
    eval_temperature=0,
):
    """Evaluate the agent in the environment (environment replaced by a fixed observation).

    Returns:
        A tuple containing the statistics, trajectories, and rendered videos.
    """
    actor_fn = supply_rng(agent.sample_actions, rng=jax.random.PRNGKey(np.random.randint(0, 2**32)))

    trajs = []
    stats = {}
    for i in range(num_eval_episodes):
        traj = {"action": []}
        observation, goal = jnp.zeros(4), jnp.ones(4)
        for _ in range(episode_length):
            action = actor_fn(observations=observation, goals=goal, temperature=1.0)
            traj["action"].append(np.array(action))
        trajs.append(traj)
    return stats, trajs
