"""A training loop that trips over jit."""

import jax
import jax.numpy as jnp
from jax import lax

from .model import forward

JAXLINT_INPUTS = {
    "ema": ["f32[16]", "f32[]"],
    "pad_to": ["f32[4]", "i32[]"],
    "early_stopping": ["f32[10]", "static:3"],
}


def mse(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


@jax.jit
def sgd_step(params, x, y, lr):
    loss, grads = jax.value_and_grad(mse)(params, x, y)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, loss


@jax.jit
def ema(history, decay):
    smoothed = jnp.zeros_like(history)
    smoothed[0] = history[0]
    for i in range(1, history.shape[0]):
        smoothed[i] = decay * smoothed[i - 1] + (1 - decay) * history[i]
    return smoothed


@jax.jit
def pad_to(x, length):
    out = jnp.zeros((length,))
    return out.at[: x.shape[0]].set(x)


def early_stopping(losses, patience):
    def body(carry, loss):
        best, waited = carry
        waited = waited + 1 if loss >= best else 0
        return (jnp.minimum(best, loss), waited), waited
    (_, waited), _ = lax.scan(body, (jnp.inf, 0), losses)
    return waited > patience


def batches(x, y, batch_size):
    for start in range(0, x.shape[0], batch_size):
        yield x[start:start + batch_size], y[start:start + batch_size]


def evaluate(params, x, y):
    it = batches(x, y, 32)

    def body(i, total):
        xb, yb = next(it)
        return total + mse(params, xb, yb)

    return lax.fori_loop(0, 4, body, 0.0)
