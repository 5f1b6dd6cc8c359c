import functools

import jax
import jax.numpy as jnp

from sparsenerf_lite.models import NerfModel
from sparsenerf_lite.train_llff_dtu import train_step

if __name__ == "__main__":
  model = NerfModel()
  rng = jax.random.PRNGKey(0)
  batch = {'rays': jnp.ones((8, 6)), 'rgb': jnp.full((8, 3), 0.5)}
  variables = model.init(rng, batch['rays'])
  step_fn = jax.jit(functools.partial(train_step, model))
  for step in range(3):
    variables, loss, rng = step_fn(rng, variables, batch, 1e-2)
    print('step', step, 'loss', float(loss))
