import jax
from flax import struct


@struct.dataclass
class Foo:
    # Error has to do with this field when set as static.
    bar: jax.Array = struct.field(pytree_node=False)  # If True, the error will not occur
