from jax import jit
from jax import random

key = random.PRNGKey(0)


def init():
    global key
    key, subkey = random.split(key)
    return random.normal(subkey, ())


if __name__ == "__main__":
    print(init())
    print(init())
    init = jit(init)
    a = init()
    b = init()
    print("repeated:", bool(a == b), type(key).__name__)
