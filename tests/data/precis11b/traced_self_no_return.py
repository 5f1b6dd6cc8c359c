import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Counter:
    def __init__(self, count):
        self.count = count

    def tree_flatten(self):
        return (self.count,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def add(self, x):
        self.count = self.count + x
        return self.count
