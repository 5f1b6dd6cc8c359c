from functools import partial

import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    @partial(jit, static_argnums=0)
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y
