from functools import partial

import jax.numpy as jnp
from jax import jit, tree_util


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    @jit
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

    def _tree_flatten(self):
        children = (self.x,)  # arrays / dynamic values
        aux_data = {'mul': self.mul}  # static values
        return (children, aux_data)

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
        return cls(*children, **aux_data)


tree_util.register_pytree_node(CustomClass,
                               CustomClass._tree_flatten,
                               CustomClass._tree_unflatten)

if __name__ == "__main__":
    c = CustomClass(2, True)
    print(c.calc(3))  # 6
    c.mul = False
    print("after mul = False:", c.calc(3))
