from jax import jit

import settings


@jit
def impure_func(x):
    print("Inside:", settings.y)
    return x + settings.y
