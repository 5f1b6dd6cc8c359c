import jax
import numpy as np

a = jax.numpy.ones((2, 2), dtype=np.float64)

if __name__ == "__main__":
    print(a.dtype)  # float32, I would expect float64
