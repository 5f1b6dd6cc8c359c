import jax.numpy as np
from jax.experimental import loops

x = np.ones((4, 2))

if __name__ == "__main__":
    with loops.Scope() as s:

        s.arr = np.zeros(shape = (10, 10), dtype = np.float64)

        for i in s.range(x.shape[0]):

            for j in s.range(i, x.shape[0]):
                print(i,j)
