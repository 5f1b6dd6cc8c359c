"""The same MLP, written the JAX way."""

import jax
import jax.numpy as jnp
from jax import random


def init_mlp(layer_sizes, seed=0):
    key = random.PRNGKey(seed)
    params = []
    for n_in, n_out in zip(layer_sizes[:-1], layer_sizes[1:]):
        key, w_key = random.split(key)
        w = random.normal(w_key, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
        b = jnp.zeros(n_out, dtype=jnp.float32)
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
    return jnp.where(jnp.abs(y) > limit, jnp.clip(y, -limit, limit), y)


def add_noise(x, key, scale):
    noise_key, drop_key = random.split(key)
    x = x + scale * random.normal(noise_key, x.shape)
    keep = random.bernoulli(drop_key, 0.9, x.shape)
    return jnp.where(keep, x, 0.0)
