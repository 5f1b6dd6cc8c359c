from typing import Callable, Optional

import jax.numpy as jnp

from ..node import OnlineNode


class LMS(OnlineNode):
    """Single layer of neurons learning connections using Least Mean Squares
    algorithm.
    """

    def __init__(self, learning_rate=1e-6, Wout=None, bias=None, fit_bias=True):
        self.learning_rate = learning_rate
        self.Wout = Wout if Wout is not None else (lambda i, o: jnp.zeros((i, o)))
        self.bias = bias if bias is not None else (lambda o: jnp.zeros((o,)))
        self.fit_bias = fit_bias

    def initialize(self, x, y=None):
        self._set_input_dim(x)
        self._set_output_dim(y)

        if isinstance(self.Wout, Callable):
            self.Wout = self.Wout(self.input_dim, self.output_dim)
        if isinstance(self.bias, Callable):
            self.bias = self.bias(self.output_dim)
        self.state = {"out": jnp.zeros((self.output_dim,))}

        self.initialized = True

    def _learning_step(self, x, y):
        alpha: float = self.learning_rate
        Wout = self.Wout
        bias = self.bias

        prediction = x @ Wout + bias  # (out,) = (in,) @ (in, out) + (out,)
        error = prediction - y  # (out,)
        dWout = -alpha * jnp.outer(x, error)  # (in, out)
        Wout_next = Wout + dWout  # (in, out)
        if self.fit_bias:
            dbias = -alpha * error
            bias_next = bias + dbias
        else:
            bias_next = bias
        y_pred = x @ Wout_next + bias

        self.Wout = Wout_next
        self.bias = bias_next
        return y_pred
