import jax
from flax import struct


@struct.dataclass
class Foo:
    bar: jax.Array = struct.field(pytree_node=True)
