import jax
import jax.numpy as jnp
from jax import lax

train_num_batches = 4
train_iterator = iter([jnp.full((2,), float(i)) for i in range(train_num_batches)])


def loss(params, batch):
    return jnp.sum((params - batch) ** 2)


@jax.jit
def run_epoch(params):
    """Update params for each epoch."""
    def loop_fun(idx, params):
        # this iterator doesn't work... batch value is always same in a loop
        batch = next(train_iterator)
        grads = jax.grad(loss)(params, batch)
        return params - 0.1 * grads

    return lax.fori_loop(0, train_num_batches, loop_fun, params)


if __name__ == "__main__":
    run_epoch(jnp.zeros(2))
    print("batches consumed:", train_num_batches - len(list(train_iterator)))
