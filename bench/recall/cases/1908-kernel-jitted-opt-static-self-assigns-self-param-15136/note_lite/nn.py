import jax
import jax.numpy as jnp


class nn:
    """A two-layer perceptron holding its parameters as a list of (w, b)."""

    def __init__(self, key, sizes=(4, 8, 1), lr=0.1):
        keys = jax.random.split(key, len(sizes) - 1)
        self.param = [
            (0.5 * jax.random.normal(k, (m, n)), jnp.zeros(n))
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])
        ]
        self.lr = lr

    def fp(self, param, data):
        (w1, b1), (w2, b2) = param
        return jnp.tanh(data @ w1 + b1) @ w2 + b2

    def loss(self, param, data, labels):
        return jnp.mean((self.fp(param, data) - labels) ** 2)
