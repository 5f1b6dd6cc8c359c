import jax
import jax.numpy as jnp
from jax import lax


def _sample_minibatches(key, dataset, batch_size, shuffle):
    """Sequence generator."""
    n_data = len(dataset)
    perm = jax.random.permutation(key, n_data) if shuffle else jnp.arange(n_data)
    for idx in range(0, n_data, batch_size):
        yield dataset[perm[idx:min(idx + batch_size, n_data)]]


def run_sgd(loss_fn, params, dataset, batch_size=2, num_epochs=3, key=jax.random.PRNGKey(0)):
    num_batches = len(dataset) // batch_size

    def train_step(carry, key):
        params = carry
        sample_generator = _sample_minibatches(key, dataset, batch_size, True)

        def cond_fun(params, _):
            minibatch = next(sample_generator)
            return params - 0.1 * jax.grad(loss_fn)(params, minibatch), loss_fn(params, minibatch)

        params, losses = lax.scan(cond_fun, params, None, length=num_batches)
        return params, losses.mean()

    keys = jax.random.split(key, num_epochs)
    return lax.scan(train_step, params, keys)


if __name__ == "__main__":
    data = jnp.arange(8.0)
    params, losses = run_sgd(lambda p, b: jnp.sum((p - b) ** 2), jnp.zeros(()), data)
    print("epoch losses:", losses)
