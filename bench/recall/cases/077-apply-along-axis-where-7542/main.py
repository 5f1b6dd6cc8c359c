import jax.numpy as jnp
import numpy as np

x = np.array([[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 1, 0]])

if __name__ == "__main__":
    print(np.apply_along_axis(np.where, 1, x).squeeze())
    print(jnp.apply_along_axis(jnp.where, 1, x).squeeze())
