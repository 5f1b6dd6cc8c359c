import time

import jax
import jax.numpy as jnp


class Timer:
    """contexttimer.Timer, as the reporter used it (elapsed seconds of the with block)."""

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self.start


def mytime(callable, msg='', iterations=30):
    callable = jax.jit(callable)
    q = callable()  # warmup
    print(q)  # make sure warmup cant be optimized

    with Timer() as t:
        rs = [callable() for i in range(iterations)]
    print(msg, t.elapsed)
    return rs[-1]


k = jax.random.normal(jax.random.PRNGKey(0), (10, 64, 64))
unit = jnp.ones(64)


def solve_all():
    r = jnp.linalg.solve(k, unit)
    return r


if __name__ == "__main__":
    mytime(solve_all, 'solve 30', iterations=30)
    mytime(solve_all, 'solve 40', iterations=40)
