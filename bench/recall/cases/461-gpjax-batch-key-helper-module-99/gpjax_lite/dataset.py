from typing import NamedTuple

import jax.numpy as jnp
import jax.random as jr


class Dataset(NamedTuple):
    X: jnp.ndarray
    y: jnp.ndarray

    @property
    def n(self):
        return self.X.shape[0]


def get_batch_new_key(train_data: Dataset, batch_size: int, key):
    """Batch the data into mini-batches and return a new key."""
    x, y, n = train_data.X, train_data.y, train_data.n

    indicies = jr.choice(key, n, (batch_size,), replace=True)
    _, new_key = jr.split(key)

    return Dataset(X=x[indicies], y=y[indicies]), new_key
