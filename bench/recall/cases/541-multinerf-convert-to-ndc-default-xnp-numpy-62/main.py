import functools

import jax
import jax.numpy as jnp
import numpy as np

import camera_utils


@functools.partial(jax.jit, static_argnums=(2,))
def train_step(origins, directions, use_ndc, pixtocam):
  """One training step that casts its rays inside the step (cast_rays_in_train_step)."""
  if use_ndc:
    origins, directions = camera_utils.convert_to_ndc(origins, directions, pixtocam)
  return jnp.mean(origins) + jnp.mean(directions)


if __name__ == "__main__":
  pixtocam = np.array([[1. / 500., 0., -0.5], [0., -1. / 500., 0.5], [0., 0., -1.]])
  origins = jnp.zeros((2048, 1, 1, 3))
  directions = jnp.ones((2048, 1, 1, 3)) * jnp.array([0.1, 0.2, -1.])
  print(train_step(origins, directions, True, pixtocam))
