import timeit

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def f1(w, a):
    # contract w's first axis with a's last axis
    return lax.dot_general(w, a, (((0,), (1,)), ((), ())))


@jax.jit
def f2(w, a):
    # the same product with the arguments swapped
    return lax.dot_general(a, w, (((1,), (0,)), ((), ())))


if __name__ == "__main__":
    w = jnp.ones((512, 512))
    a = jnp.ones((256, 512))
    f1(w, a).block_until_ready()
    f2(w, a).block_until_ready()
    print(min(timeit.repeat(lambda: f1(w, a), number=1, repeat=100)))
    print(min(timeit.repeat(lambda: f2(w, a), number=1, repeat=100)))
