import jax
import numpy as np

if __name__ == "__main__":
    a = jax.numpy.asarray([2,3], dtype='int')
    print("numpy:", np.asarray([2, 3], dtype='int').dtype, "jax:", a.dtype)
