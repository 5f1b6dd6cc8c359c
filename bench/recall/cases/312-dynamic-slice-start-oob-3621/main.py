import jax
import numpy as np
from jax import lax

v = np.array([1, 2])
f_jax = jax.jit(lambda a: lax.dynamic_slice(a, [5], [1]))

if __name__ == "__main__":
    print(f_jax(v))
