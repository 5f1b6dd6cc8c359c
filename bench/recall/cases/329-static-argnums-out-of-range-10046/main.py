import functools

import jax


@functools.partial(jax.jit, static_argnums=(1, 3))
def g(a, b, c):
    return a + b + c


if __name__ == "__main__":
    print(g(1., 2., 3.))
