import jax
import jax.numpy as jnp

from waymax_lite import agents


def delta_inverse(traj):
  # a delta dynamics model: the action is the displacement between the two steps
  return jax.tree_util.tree_map(lambda x: x[..., 1] - x[..., 0], traj)


if __name__ == "__main__":
  state = {
      'sim_trajectory': {'x': jnp.zeros((2, 5)), 'y': jnp.zeros((2, 5))},
      'log_trajectory': {'x': jnp.arange(10.).reshape(2, 5), 'y': jnp.ones((2, 5))},
      'timestep': 0,
      'is_sdc': jnp.array([True, False]),
  }
  actor = agents.create_expert_actor(dynamics_model=delta_inverse)
  out = jax.jit(actor)(None, state)
  print(out.action)
