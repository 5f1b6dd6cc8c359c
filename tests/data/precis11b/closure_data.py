import jax
import jax.numpy as jnp


def sweep(x):
    for scale in [1.0, 2.0, 4.0]:
        def scaled(v):
            return jnp.sum(v * scale)

        f = jax.jit(scaled)
        print(f(x))
