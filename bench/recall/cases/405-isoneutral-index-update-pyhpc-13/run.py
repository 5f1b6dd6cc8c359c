import numpy as np

from benchmarks.isoneutral_mixing import isoneutral_jax

if __name__ == "__main__":
    shape = (4, 4, 3)
    maskW = np.ones(shape)
    dzw = np.ones(shape[2])
    salt = np.random.rand(*shape, 3)
    temp = np.random.rand(*shape, 3)
    K_11 = np.zeros(shape)
    print(isoneutral_jax.run(maskW, dzw, salt, temp, K_11)[0].shape)
