from functools import partial

from jax import jit


@partial(jit, static_argnums=1)
def f(x, y=0):
    return x + y


if __name__ == "__main__":
    print(f(5))
