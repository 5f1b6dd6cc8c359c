import jax
from jax import numpy as jnp
from jax import jit, vmap


def mandle_brot(c, max_iter):
    z = jnp.array([0.0 + 0.0j])
    for i in range(max_iter):
        z = z * z + c
        if (jnp.abs(z) > 2.0):
            return jnp.array([i])
    return jnp.array([max_iter])


z = jnp.complex64(-0.75 + 0.1j)

if __name__ == "__main__":
    print(mandle_brot(z, 100))
    Z = jnp.array([z, z, z, z])
    mandle_brot_vmap = vmap(mandle_brot, in_axes=(0, None))
    mandle_brot_vmap(Z, 10)  # error from this part
