from functools import partial

import jax
import jax.numpy as jnp


class Tracker:
    def __init__(self):
        self.calls = 0

    @partial(jax.jit, static_argnums=0)
    def update(self, x):
        self.calls += 1
        return x + 1


if __name__ == "__main__":
    t = Tracker()
    for _ in range(3):
        t.update(jnp.zeros(2))
    print("calls:", t.calls)
