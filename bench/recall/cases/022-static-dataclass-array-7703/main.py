import dataclasses
from typing import Any

import jax


@dataclasses.dataclass(unsafe_hash=True)
class C:
    x: Any


x = jax.numpy.zeros([1])
c = C(x)


def f(c, x):
    return x * c.x


if __name__ == "__main__":
    jax.jit(f, static_argnums=0)(c, x)
