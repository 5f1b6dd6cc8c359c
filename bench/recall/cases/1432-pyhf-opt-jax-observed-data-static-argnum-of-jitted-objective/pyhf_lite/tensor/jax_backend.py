"""The jax backend (the methods the shim and the tensor viewer use)."""
import jax.numpy as jnp


class jax_backend:
    """jax backend for pyhf"""

    def __init__(self, **kwargs):
        self.name = 'jax'

    def astensor(self, tensor_in, dtype='float'):
        dtypemap = {'float': jnp.float32, 'int': jnp.int32, 'bool': jnp.bool_}
        return jnp.asarray(tensor_in, dtype=dtypemap[dtype])

    def concatenate(self, sequence, axis=0):
        return jnp.concatenate(sequence, axis=axis)

    def gather(self, tensor, indices):
        return tensor[indices]

    def shape(self, tensor):
        return tensor.shape

    def einsum(self, subscripts, *operands):
        return jnp.einsum(subscripts, *operands)

    def tolist(self, tensor_in):
        return jnp.asarray(tensor_in).tolist()
