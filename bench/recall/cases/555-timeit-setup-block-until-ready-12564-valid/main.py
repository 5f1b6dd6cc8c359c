from timeit import timeit

import jax
import jax.numpy as jnp


@jax.jit
def fun(a, b):
    "some computation which computes results"
    return jnp.tanh(a @ b).sum()


if __name__ == "__main__":
    a = jnp.ones((200, 200))
    b = jnp.ones((200, 200))
    N = 10
    # approach 1
    temp = lambda: fun(a, b).block_until_ready()
    time = timeit(temp, setup=temp, number=N)/N   # run N number of times and take avg
    print(f"avg: {time * 1e3:.3f} ms")
