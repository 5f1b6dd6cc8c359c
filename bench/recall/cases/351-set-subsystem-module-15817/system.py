import jax
import jax.numpy as jnp


class A:
    def __init__(self, x: jnp.ndarray):
        self.x = x

    def _tree_flatten(self):
        dynamic = (self.x, )
        static = {}
        return dynamic, static

    @classmethod
    def _tree_unflatten(cls, static, dynamic):
        return cls(*dynamic)

    @jax.jit   # if there is not jit here then everything is good
    def set_subsystem(self, index, sub: "A"):
        self.x = self.x.at[index].set(sub.x)


jax.tree_util.register_pytree_node(A,
                                   A._tree_flatten,
                                   A._tree_unflatten)
