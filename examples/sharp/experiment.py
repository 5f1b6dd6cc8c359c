"""The experiment script: augmentation, logging, a sweep and a benchmark."""

import time

import jax
import jax.numpy as jnp
import numpy as np

from .model import forward, init_mlp

JAXLINT_INPUTS = {
    "augment": ["f32[8]"],
    "entropy": ["f32[8]"],
}


@jax.jit
def augment(x):
    noise = np.random.normal(size=x.shape)  # one draw, baked into the compiled function
    return x + 0.01 * noise


@jax.jit
def log_likelihood(params, x, y):
    pred = forward(params, x)
    ll = -jnp.mean((pred - y) ** 2)
    print("log-likelihood:", ll)  # runs once, at trace time, and prints a tracer
    return ll


def entropy(p):
    return -jnp.sum(jnp.where(p > 0, p * jnp.log(p), 0.0))


def run(x, y, steps=10):
    params = init_mlp([x.shape[1], 16, 1])
    for step in range(steps):
        scale = jax.jit(lambda v: v * (1.0 + step))
        x = scale(augment(x))
    flat = jax.tree_map(lambda p: p.ravel(), params)
    start = time.perf_counter()
    ll = log_likelihood(params, x, y)
    elapsed = time.perf_counter() - start
    return flat, ll, elapsed
