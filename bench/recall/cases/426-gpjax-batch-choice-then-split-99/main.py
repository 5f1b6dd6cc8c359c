from typing import NamedTuple

import jax
import jax.numpy as jnp
import jax.random as jr

jax.config.update("jax_debug_key_reuse", True)


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


def fit_batches(objective, params, train_data, n_iters, batch_size, key):
    def step(carry, _):
        params, current_key = carry
        batch, new_key = get_batch_new_key(train_data, batch_size, current_key)
        loss_val, loss_gradient = jax.value_and_grad(objective)(params, batch)
        params = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, loss_gradient)
        return (params, new_key), loss_val

    (params, _), history = jax.lax.scan(step, (params, key), None, length=n_iters)
    return params, history


if __name__ == "__main__":
    x = jnp.linspace(0, 1, 20)[:, None]
    data = Dataset(X=x, y=2 * x)
    objective = lambda w, batch: jnp.mean((batch.X * w - batch.y) ** 2)
    params, history = fit_batches(objective, jnp.array(0.0), data, 5, 4, jr.key(0))
    print(history)
