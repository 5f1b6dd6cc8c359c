from jax.scipy.special import multigammaln
from jax import jit

if __name__ == "__main__":
  print(jit(multigammaln)(1, 2))
