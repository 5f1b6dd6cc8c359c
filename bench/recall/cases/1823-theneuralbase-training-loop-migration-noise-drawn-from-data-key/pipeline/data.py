import jax
import jax.numpy as jnp


def make_synthetic_data():
    # Generate synthetic data
    key = jax.random.PRNGKey(0)
    X = jax.random.normal(key, (100, 10))
    y = jnp.sum(X[:, :3], axis=1) + jax.random.normal(key, (100,)) * 0.1
    return X, y
