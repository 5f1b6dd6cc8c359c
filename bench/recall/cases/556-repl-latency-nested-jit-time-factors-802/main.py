import time

import jax.numpy as np
from jax import jit, random


class Factorizer:
    def __init__(self, data):
        self.data = data

    def f(self, rank):
        @jit
        def g(data):
            u, s, vt = np.linalg.svd(data, full_matrices=False)
            return u[:, :rank] * s[:rank]
        x = g(self.data)
        self.factors = x


if __name__ == "__main__":
    foo = Factorizer(random.normal(random.PRNGKey(0), (1000, 1000)))
    foo.f(10)
    start = time.time()
    total = foo.factors.sum()
    print(f"Wall time: {(time.time() - start) * 1e6:.0f} us")
    print(total)
