import functools

import jax
import jax.numpy as jnp


def loss(x, w):
    return jnp.sum((x @ w) ** 2)


def evaluate(x, weights):
    for w in weights:
        f = jax.jit(functools.partial(loss, w=w))
        print(f(x))


def scales(x):
    for scale in [1.0, 2.0]:
        f = jax.jit(functools.partial(loss, w=scale))
        print(f(x))
