""" QArray. """

import jax.numpy as jnp


class Qarray:
    def __init__(self, data):
        self._data = data

    # Initialization ----
    @classmethod
    def create(cls, data):
        data = jnp.asarray(data)
        if len(data.shape) == 1 and data.shape[0] > 0:
            data = data.reshape(data.shape[0], 1)
        return cls(data)

    @property
    def data(self):
        return self._data

    def is_dm(self):
        return self.data.shape[-1] == self.data.shape[-2]

    def dag(self):
        return Qarray.create(jnp.conj(self.data).T)

    def to_dm(self):
        return ket2dm(self)

    def unit(self):
        return unit(self)

    def norm(self):
        return norm(self)


def ket2dm(qarr: Qarray) -> Qarray:
    return Qarray.create(qarr.data @ qarr.dag().data)


def unit(qarr: Qarray) -> Qarray:
    """Normalize the quantum array."""
    data = qarr.data
    data = data / qarr.norm()
    return Qarray.create(data)


def norm(qarr: Qarray) -> float:
    data = qarr.data
    data_dag = qarr.dag().data

    if qarr.is_dm():
        evals, _ = jnp.linalg.eigh(data @ data_dag)
        rho_norm = jnp.sum(jnp.sqrt(jnp.abs(evals)))
        return rho_norm
    return jnp.linalg.norm(data)
