from functools import partial

import jax
import jax.numpy as jnp

from ..node import TrainableNode


class IPReservoir(TrainableNode):
    def __init__(self, W, Win, bias=0.0, lr=1.0, mu=0.0, sigma=1.0,
                 learning_rate=5e-4, epochs=1):
        self.W = W
        self.Win = Win
        self.bias = bias
        self.lr = lr
        self.mu = mu
        self.sigma = sigma
        self.learning_rate = learning_rate
        self.epochs = epochs
        self.activation = jnp.tanh
        self.output_dim = W.shape[-1]

    def initialize(self, x, y=None):
        self.a = jnp.ones((self.output_dim,))
        self.b = jnp.zeros((self.output_dim,))
        self.state = dict(internal=jnp.zeros((self.output_dim,)), out=jnp.zeros((self.output_dim,)))
        self.initialized = True

    @partial(jax.jit, static_argnums=(0,))
    def _step(self, state, x):
        W = self.W  # NxN
        Win = self.Win  # NxI
        bias = self.bias  # N or float
        f = self.activation
        lr = self.lr
        (internal, external) = state["internal"], state["out"]

        next_state = W @ external + Win @ x + bias
        next_state = (1 - lr) * internal + lr * next_state

        next_external = f(self.a * next_state + self.b)

        return {"internal": next_state, "out": next_external}

    def fit(self, x, y=None, warmup=0):
        if not self.initialized:
            self.initialize(x, y)
        for _epoch in range(self.epochs):
            self.partial_fit(x[warmup:])
        return self

    def partial_fit(self, x):
        for u in x:
            post_state = self.step(u)
            pre_state = self.state["internal"]

            delta_a, delta_b = self.gaussian_gradients(pre_state, post_state)
            self.a += self.learning_rate * delta_a
            self.b += self.learning_rate * delta_b

    def gaussian_gradients(self, x, y):
        """KL loss gradients of neurons with tanh activation (~ Normal(mu, sigma))."""
        mu, sig2 = self.mu, self.sigma**2
        delta_b = -(-(mu / sig2) + (y / sig2) * (2 * sig2 + 1 - y**2 + mu * y))
        delta_a = (1 / self.a) + delta_b * x
        return delta_a, delta_b
