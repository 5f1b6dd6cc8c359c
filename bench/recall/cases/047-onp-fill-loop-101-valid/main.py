import jax.numpy as np
import numpy as onp  # original numpy

x = onp.zeros((10, 2))  # original numpy array, supports indexed assignment/mutation
for i in range(10):
    x[i, :] = (i, 2 * i)

if __name__ == "__main__":
    print(np.sum(x))
