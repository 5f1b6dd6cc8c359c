import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Counter:
    def __init__(self, count, total):
        self.count = count
        self.total = total

    def tree_flatten(self):
        return (self.count, self.total), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def add(self, x):
        self.count = self.count + 1
        self.total = self.total + x
        return self


counter = Counter(jnp.zeros(()), jnp.zeros(()))
counter = counter.add(2.0)
