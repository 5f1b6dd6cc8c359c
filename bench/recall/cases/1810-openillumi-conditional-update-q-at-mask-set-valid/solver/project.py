import jax.numpy as jnp


def project_nonnegative(q):
    q = jnp.asarray(q)
    q = q.at[q < 0].set(0)
    return q
