import jax
import jax.numpy as jnp
import numpy as np

f = lambda i: jnp.zeros((3, 3))[i, :]
g = lambda i: np.zeros((3, 3))[i, :]

a = np.array([1, 2])

if __name__ == "__main__":
    f(a)
    jax.jit(f)(a)
    g(a)
    jax.jit(g)(a)
