import jax.numpy as jnp


def project_nonnegative(q):
    q = jnp.asarray(q)
    q[q < 0] = 0.0
    return q
