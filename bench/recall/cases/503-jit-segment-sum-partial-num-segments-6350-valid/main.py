import functools

import jax
import numpy as np

c = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [5, 6, 7, 8]])
b = np.array([0, 0, 1])
jit_fn = jax.jit(functools.partial(jax.ops.segment_sum, num_segments=2))


if __name__ == "__main__":
    print(jit_fn(c, b).tolist())
