import jax.numpy as np
from jax import vmap

a = np.array([[1, 2, 3]]).transpose()
m1 = np.array([[1, 1, 1], [2, 2, 2]])

vv = lambda x, y: np.vdot(x, y)
mv = vmap(vv, (0, None), 0)
mm = vmap(mv, (None, 1), 1)

if __name__ == "__main__":
    print("product:", mm(m1, a).tolist())
