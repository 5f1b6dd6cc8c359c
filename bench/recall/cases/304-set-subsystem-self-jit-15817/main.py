import jax
import jax.numpy as jnp
import numpy as np


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


nall = 3
nsub = 2
x = jnp.array(np.random.random((nall, )))
x2 = jnp.array(np.random.random((nsub, )))

if __name__ == "__main__":
    a = A(x)
    a2 = A(x2)
    before = a.x
    a.set_subsystem(jnp.arange(nsub), a2)
    print(a.x)
    print("unchanged:", bool((a.x == before).all()))
