import jax.numpy as jnp


def dtype_real_to_complex(dtype):
    if dtype == jnp.float64:
        return jnp.complex128
    return jnp.complex64
