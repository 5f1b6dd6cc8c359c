import random as prandom

import numpy as onp
from jax import numpy as np
from jax import random


def get_sparse_pattern(batch_size, rng, shape):
  n_edges_max = onp.prod((1,) + shape)**2
  n_edges = prandom.randint(1, n_edges_max)
  pattern = [np.zeros((batch_size, n_edges, 0), np.int32)]

  for d in range(len(shape)):
    rng_d, _ = random.split(rng)
    n_nodes = shape[d]
    edges = random.randint(rng_d, (batch_size, n_edges, 2), 0, n_nodes)
    pattern += [edges]

  pattern = np.concatenate(pattern, 2)
  return pattern


if __name__ == "__main__":
  prandom.seed(0)
  pattern = get_sparse_pattern(2, random.PRNGKey(1), (5, 5))
  print("pattern:", pattern.shape)
  print("same:", bool(np.array_equal(pattern[..., 0:2], pattern[..., 2:4])))
