import jax
import jax.numpy as np
import numpy as onp


# w.shape = (N, )
# x.shape = (N, )
# assert np.sum(w) = 1
@jax.jit
def stratified_resampling(key, w, x) :
  N = w.shape[0]
  u = (np.arange(N) + jax.random.uniform(key, (N, ))) / N
  bins = np.cumsum(w)
  return x[onp.digitize(u, bins)]


if __name__ == "__main__":
  w = np.ones(8) / 8
  x = np.arange(8.0)
  print(stratified_resampling(jax.random.PRNGKey(0), w, x))
