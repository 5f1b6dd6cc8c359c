import jax
import jax.numpy as jnp
from jax import lax


def batches(x):
    for i in range(0, x.shape[0], 2):
        yield x[i:i + 2]


def evaluate(x):
    it = batches(x)

    def body(i, total):
        return total + next(it).sum()
    return lax.fori_loop(0, 3, body, 0.0)


if __name__ == "__main__":
    data = jnp.arange(6.0)
    print(evaluate(data), evaluate(data))
