from __future__ import print_function
import jax.numpy as np
from jax import jit, grad
from jax import random
from jax.experimental import minmax
from jax.experimental import stax
from jax.experimental.stax import Dense, Relu, Dropout, LogSoftmax

init_fun, apply_fun = stax.serial(
    Dense(512), Relu, Dropout(0.4, mode='train'),
    Dense(3), LogSoftmax
)

if __name__ == "__main__":
    print(init_fun)
