import jax
from jax import numpy as jp


class MultiQuadEnv:
  """Quadrotors carrying a cable-suspended payload (reduced: the reset's velocity randomisation)."""

  def __init__(self, num_quads=2, base_max_thrust=0.14, max_thrust_range=0.3):
    self.num_quads = num_quads
    self.base_max_thrust = base_max_thrust
    self.max_thrust_range = max_thrust_range
    # body 0 is the payload; each quad has 6 velocity dofs
    self.nv = 6 * (num_quads + 1)
    self.quad_body_ids = [i + 1 for i in range(num_quads)]

  def reset(self, rng: jax.Array):
    """Resets the environment to an initial state."""
    # randomize max_thrust between in range
    rng, mt_rng = jax.random.split(rng)
    factor = jax.random.uniform(mt_rng, (), minval=1.0 - self.max_thrust_range, maxval=1.0)
    max_thrust = self.base_max_thrust * factor

    rng, rng1, rng2, rng_config = jax.random.split(rng, 4)

    # Randomize velocities around zero
    ang_vel_std = 20 * jp.pi / 180  # 20 degrees per second
    lin_vel_std = 0.2  # 20 cm/s

    qvel = jp.zeros(self.nv)
    for i in range(self.num_quads):
      quad_body_id = self.quad_body_ids[i]
      qvel[quad_body_id, 0:3] = jax.random.normal(rng2, (3,)) * lin_vel_std
      qvel[quad_body_id, 3:6] = jax.random.normal(rng2, (3,)) * ang_vel_std

    return {"qvel": qvel, "max_thrust": max_thrust}
