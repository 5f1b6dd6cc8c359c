import jax
import jax.numpy as jnp

from jaxlie_lite import hints


def sample_uniform(key: hints.KeyArray) -> jax.Array:
    """Draw a uniformly sampled unit quaternion."""
    xyzw = jax.random.normal(key=key, shape=(4,))
    return xyzw / jnp.linalg.norm(xyzw)


if __name__ == "__main__":
    q = sample_uniform(jax.random.PRNGKey(0))
    print("unit:", bool(jnp.allclose(jnp.linalg.norm(q), 1.0)))
