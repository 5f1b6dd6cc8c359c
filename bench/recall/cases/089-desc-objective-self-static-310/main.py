import functools

import jax
import jax.numpy as jnp


class AspectRatio:
    def __init__(self, target, weight):
        self.target = target
        self.weight = weight

    @functools.partial(jax.jit, static_argnums=(0,))
    def compute(self, R_lmn):
        return self.weight * (jnp.sum(R_lmn) - self.target)


if __name__ == "__main__":
    obj = AspectRatio(target=5.0, weight=1.0)
    first = obj.compute(jnp.ones(3))
    obj.weight = 10.0
    second = obj.compute(jnp.ones(3))
    print("stale:", bool(first == second))
