"""The experiment script, written so that jit helps rather than surprises."""

import time

import jax
import jax.numpy as jnp

from .model import forward, init_mlp


@jax.jit
def augment(x, key):
    return x + 0.01 * jax.random.normal(key, x.shape)


@jax.jit
def log_likelihood(params, x, y):
    pred = forward(params, x)
    ll = -jnp.mean((pred - y) ** 2)
    jax.debug.print("log-likelihood: {}", ll)
    return ll


def entropy(p):
    safe = jnp.where(p > 0, p, 1.0)
    return -jnp.sum(jnp.where(p > 0, p * jnp.log(safe), 0.0))


@jax.jit
def scale(v, step):
    return v * (1.0 + step)


def run(x, y, key, steps=10):
    params = init_mlp([x.shape[1], 16, 1])
    for step in range(steps):
        key, sub = jax.random.split(key)
        x = scale(augment(x, sub), step)
    flat = jax.tree.map(lambda p: p.ravel(), params)
    start = time.perf_counter()
    ll = log_likelihood(params, x, y).block_until_ready()
    elapsed = time.perf_counter() - start
    return flat, ll, elapsed
