import functools

import jax.numpy as np
from jax import jit, lax


def infect(x, step):
    return x + step, x


def pandemic_scan(state, step=1, t=0, T=5):

    @functools.partial(jit, static_argnums=(1, 2, 3))
    def _pandemic_scan(state, step, t, T):
        return lax.scan(
            infect,
            state,
            np.full(T, step)
        )

    return _pandemic_scan(state, step, t, T)


if __name__ == "__main__":
    for _ in range(3):
        pandemic_scan(np.zeros(()), T=5)
