import dataclasses
import jax


@dataclasses.dataclass
class Foo:
    a: int
    b: jax.Array


def flattten(m: Foo):
    return (m.a,), m.b


def unflatten(aux_data, children):
    return Foo(a=children[0], b=aux_data)


jax.tree_util.register_pytree_node(Foo, flattten, unflatten)
