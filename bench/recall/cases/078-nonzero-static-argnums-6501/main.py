import jax.numpy as jnp
from jax import jit

x = jnp.array([0, 1, 1, 0, 0, 1])

if __name__ == "__main__":
    # pass a static size and it works with jit()
    print(jit(jnp.nonzero, static_argnums=1)(x, 3))
