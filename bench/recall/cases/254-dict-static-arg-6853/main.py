from functools import partial

import jax.numpy as jnp
import numpy as np
from jax import jit


@partial(jit, static_argnums=1)
def foo(x, d: dict):
  return x[:d['num']] + d['val']


if __name__ == "__main__":
    print(foo(jnp.arange(10), {'num': 5, 'value': np.arange(5)}))
