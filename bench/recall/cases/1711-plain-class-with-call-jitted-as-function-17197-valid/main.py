import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


class B:
    def __init__(self, val: jnp.ndarray):
        self.val = val

    def __call__(self, x):
        return self.val * x


def flatten(obj):
    return (obj.val, None)


def unflatten_b(aux_data, children):
    return B(*children)


register_pytree_node(B, flatten, unflatten_b)

b = B(jnp.zeros(10))
fast_call_b = jax.jit(b)

if __name__ == "__main__":
    print("called:", fast_call_b(1.0).shape)
