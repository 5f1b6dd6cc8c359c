import jax
import jax.numpy as jnp
import numpy as np
from jax import jit


@jit
def mytest(param):
    return np.sqrt(np.sum(param * np.asarray([3.0, 4.0])))


if __name__ == "__main__":
    print(mytest(jnp.ones((1,))))
