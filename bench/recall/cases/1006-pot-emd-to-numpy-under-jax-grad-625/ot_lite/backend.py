"""Multi-lib backend for POT (the numpy and jax backends only)."""
import numpy as np

import jax
import jax.numpy as jnp


class Backend():
    __name__ = None
    __type__ = None
    __type_list__ = None

    def to_numpy(self, *arrays):
        """Returns the numpy version of tensors"""
        if len(arrays) == 1:
            return self._to_numpy(arrays[0])
        else:
            return [self._to_numpy(array) for array in arrays]

    def _to_numpy(self, a):
        """Returns the numpy version of a tensor"""
        raise NotImplementedError()

    def from_numpy(self, a, type_as=None):
        raise NotImplementedError()


class NumpyBackend(Backend):
    __name__ = 'numpy'
    __type__ = np.ndarray

    def _to_numpy(self, a):
        return a

    def from_numpy(self, a, type_as=None):
        return a


class JaxBackend(Backend):
    __name__ = 'jax'
    __type__ = jax.Array

    def _to_numpy(self, a):
        return np.array(a)

    def from_numpy(self, a, type_as=None):
        if type_as is None:
            return jnp.array(a)
        return jnp.array(a).astype(type_as.dtype)


def get_backend(*args):
    if isinstance(args[0], np.ndarray):
        return NumpyBackend()
    return JaxBackend()
