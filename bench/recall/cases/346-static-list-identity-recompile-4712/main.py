import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(0,))
def dummy_add_fn(dummy, x):
    return x + 1


if __name__ == "__main__":
    dummy_arg = [0]
    real_arg = jnp.zeros((3,))
    dummy_add_fn(dummy_arg, real_arg)  # <- JIT compilation
