import functools

import jax


@functools.partial(jax.jit, static_argnames=('b', 'd'))
def f(a, b, c):
    return a + b + c


if __name__ == "__main__":
    print(f(1., 2., 3.))
