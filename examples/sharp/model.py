"""An MLP with the classic mistakes."""

import jax
import jax.numpy as jnp
from jax import random

# example inputs for `jaxlint confirm` (one spec per argument; see docs/runtime.md)
JAXLINT_INPUTS = {
    "init_mlp": ["static:(4, 8, 1)"],
    "add_noise": ["f32[16]", "legacy-key", "f32[]"],
}


def init_mlp(layer_sizes, seed=0):
    key = random.PRNGKey(seed)
    params = []
    for n_in, n_out in zip(layer_sizes[:-1], layer_sizes[1:]):
        # the same key for every layer: all layers start with identical weights
        w = random.normal(key, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
        b = jnp.zeros(n_out, dtype=jnp.float64)
        params.append({"w": w, "b": b})
    return params


@jax.jit
def forward(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    last = params[-1]
    return x @ last["w"] + last["b"]


@jax.jit
def clipped_forward(params, x, limit):
    y = forward(params, x)
    if jnp.abs(y).max() > limit:
        y = jnp.clip(y, -limit, limit)
    return y


def add_noise(x, key, scale):
    noise = random.normal(key, x.shape)
    x = x + scale * noise
    dropout = random.bernoulli(key, 0.9, x.shape)
    return jnp.where(dropout, x, 0.0)
