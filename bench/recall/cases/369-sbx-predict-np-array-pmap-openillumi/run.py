import jax.numpy as jnp
import numpy as np
from jax import pmap

from policies import BaseJaxPolicy


def my_func():
    policy = BaseJaxPolicy((2,), -1.0, 1.0)
    return policy.predict(np.zeros((1, 3)))


if __name__ == "__main__":
    out = pmap(lambda _: my_func())(jnp.arange(2))
    print(out)
