import jax
import jax.numpy as jnp
from jax import lax
from jax.random import gamma, normal
from jax.random import split as _split


def t(key, df, shape=(), dtype=jnp.float32):
    df = lax.convert_element_type(df, dtype)
    key_n, key_g = _split(key)
    n = normal(key_n, shape, dtype)
    two = jnp.array(2, dtype)
    half_df = lax.div(df, two)
    g = gamma(key_g, half_df, shape, dtype)
    return n * jnp.sqrt(half_df / g)


if __name__ == "__main__":
    with jax.debug_key_reuse(True):
        print(t(jax.random.key(0), 3.0, (4,)))
