from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=(1, 2))
def loss(r, x, y):
    return jnp.mean((x @ r - y) ** 2)


x = np.random.randn(50, 3)
y = x @ np.array([1.0, -2.0, 0.5])

if __name__ == "__main__":
    r = jnp.zeros(3)
    print(jax.grad(loss)(r, x, y))
