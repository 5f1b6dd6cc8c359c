from jax import jit
from flax.struct import dataclass, field
import numpy as np


@dataclass
class Model():
    c: np.ndarray = field(pytree_node=False)


@jit
def f(model):
    return 1.0


m = Model(np.ones(10))
n = Model(np.ones(10))

if __name__ == "__main__":
    f(m)
    f(n)
