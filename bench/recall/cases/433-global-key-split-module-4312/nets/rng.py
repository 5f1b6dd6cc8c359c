from jax import random

key = random.PRNGKey(0)


def next_key():
    global key
    key, subkey = random.split(key)
    return subkey


def init():
    return random.normal(next_key(), ())
