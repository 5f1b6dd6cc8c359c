import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def normalise(x):
    return x / np.linalg.norm(x)


if __name__ == "__main__":
    print(normalise(jnp.array([3.0, 4.0])))
