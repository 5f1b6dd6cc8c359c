"""The training loop, jit-friendly."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from .model import forward


def mse(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


@jax.jit
def sgd_step(params, x, y, lr):
    loss, grads = jax.value_and_grad(mse)(params, x, y)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, loss


@jax.jit
def ema(history, decay):
    def step(prev, h):
        cur = decay * prev + (1 - decay) * h
        return cur, cur

    _, rest = lax.scan(step, history[0], history[1:])
    return jnp.concatenate([history[:1], rest])


@partial(jax.jit, static_argnums=(1,))
def pad_to(x, length):
    out = jnp.zeros((length,))
    return out.at[: x.shape[0]].set(x)


def early_stopping(losses, patience):
    def body(carry, loss):
        best, waited = carry
        waited = jnp.where(loss >= best, waited + 1, 0)
        return (jnp.minimum(best, loss), waited), waited
    (_, waited), _ = lax.scan(body, (jnp.inf, 0), losses)
    return waited > patience


def evaluate(params, x, y, batch_size=32):
    n_batches = x.shape[0] // batch_size
    xs = x[: n_batches * batch_size].reshape(n_batches, batch_size, -1)
    ys = y[: n_batches * batch_size].reshape(n_batches, batch_size, -1)

    def body(total, batch):
        xb, yb = batch
        return total + mse(params, xb, yb), None

    total, _ = lax.scan(body, 0.0, (xs, ys))
    return total
