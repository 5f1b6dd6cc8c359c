from jax import jit
from jax import random

key = random.PRNGKey(0)


def init():
    global key
    key, subkey = random.split(key)
    return random.normal(subkey, ())


if __name__ == "__main__":
    print(init())  # -1.2515389
    print(init())  # -0.58665067

    init = jit(init)
    a = init()
    b = init()
    print(a, b)
    print("repeated randomness:", bool(a == b))
    # If we look at the key, we see an escaped tracer
    print(key)
