import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, mul):
        self.mul = mul

    def calc(self, x):
        return x * self.mul


if __name__ == "__main__":
    c = CustomClass(2.0)
    jitted_calc = jit(c.calc)
    print(jitted_calc(jnp.ones(2)))
    c.mul = 3.0
    print("stale:", bool((jitted_calc(jnp.ones(2)) == 2.0).all()))
