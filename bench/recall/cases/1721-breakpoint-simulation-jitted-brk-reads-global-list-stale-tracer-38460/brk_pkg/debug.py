import jax
import jax.numpy as jnp

foo = []


@jax.jit
def brk(token):
    [x] = foo
    return jnp.concatenate([token, x])
