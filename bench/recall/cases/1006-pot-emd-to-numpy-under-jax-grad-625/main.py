import jax.numpy as jnp
from jax import random, grad
import ot_lite as pot

key = random.PRNGKey(0)
B = 10

key, subkey = random.split(key)
x = random.normal(subkey, (B, 1))
key, subkey = random.split(key)
y = random.normal(subkey, (B, 1))


def loss_fn(x, y):
    costs = jnp.linalg.norm(x[:, None] - y[None, :], axis=-1)**2

    pi = pot.emd(
        jnp.ones(B) / B,
        jnp.ones(B) / B,
        costs)

    return jnp.sum(pi * costs)


if __name__ == "__main__":
    print(loss_fn(x, y))
    g = grad(loss_fn)(x, y)
    print(g)
