import jax
import jax.numpy as jnp

_KEY = jax.random.PRNGKey(0)


def next_key(key=None):
    """The caller's key if it gives one, else a fresh one from the module's key."""
    global _KEY
    if key is not None:
        return key
    _KEY, sub = jax.random.split(_KEY)
    return sub


@jax.jit
def noisy(x, key):
    return x + jax.random.normal(next_key(key), x.shape)


a = noisy(jnp.zeros(2), jax.random.PRNGKey(1))
b = noisy(jnp.zeros(2), jax.random.PRNGKey(2))
print(a, b)
assert not jnp.allclose(a, b)
assert not isinstance(_KEY, jax.core.Tracer)
print("ok")
