from functools import partial

import jax
from jax import jit


class A1:
    @partial(jit, static_argnums=0)
    def f(self, x):
        return x


if __name__ == "__main__":
    a = A1()
    print("f:", a.f(5))
