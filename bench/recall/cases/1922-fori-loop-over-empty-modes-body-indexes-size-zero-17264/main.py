import jax.numpy as jnp

from modes.transfer import copy_coefficients

if __name__ == "__main__":
    modes_old = jnp.empty((0,3))
    modes_new = jnp.empty((4,3))
    c_old = jnp.empty(0)
    c_new = jnp.empty(4)
    try:
        print(copy_coefficients(modes_old, modes_new, c_old, c_new))
    except IndexError as e:
        print("IndexError:", e)
