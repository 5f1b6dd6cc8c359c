import jax
import jax.numpy as jnp


def project(x, lower, upper):
    return jax.tree_multimap(lambda v, lo, hi: jnp.clip(v, lo, hi), x, lower, upper)


if __name__ == "__main__":
    project(jnp.arange(3.0), jnp.zeros(3), jnp.ones(3))
