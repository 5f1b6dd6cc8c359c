import jax.numpy as np
from jax.lax import scan

from bayesnewton_lite.utils import count_indices

if __name__ == "__main__":
    ind = np.array([0, 2, 2, 1])
    count, _ = scan(f=count_indices, init=np.zeros(3), xs=ind)
    print("count:", count)
