import jax
from jax import random

batch_size = 8


def augment(key):
    key, subkey = random.split(key)
    rotate = random.randint(key, shape=[batch_size], minval=0, maxval=2)
    key, nxt = random.split(key)
    return rotate, nxt


if __name__ == "__main__":
    with jax.debug_key_reuse(True):
        augment(random.key(0))
