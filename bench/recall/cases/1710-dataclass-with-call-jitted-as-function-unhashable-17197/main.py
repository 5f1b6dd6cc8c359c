from dataclasses import dataclass
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


@dataclass
class A:
    val: jnp.ndarray

    def __call__(self, x):
        return self.val * x


def flatten(obj):
    return (obj.val, None)


def unflatten_a(aux_data, children):
    return A(*children)


register_pytree_node(A, flatten, unflatten_a)

a = A(jnp.zeros(10))
fast_call_a = jax.jit(a)

if __name__ == "__main__":
    try:
        print(fast_call_a(1.0))
    except TypeError as err:
        print("TypeError:", str(err).splitlines()[0])
