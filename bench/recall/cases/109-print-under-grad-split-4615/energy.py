import jax.numpy as jnp


def JU(x):
    ret = jnp.sum(jnp.cos(x) * x)
    print("JUtotal: ", ret)
    return ret
