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


if __name__ == "__main__":
    c = CustomClass(2, True)
    print(c.calc(3))  # 6
    c.mul = False
    print("after mul = False:", c.calc(3))  # should be 3
