import jax
import jax.numpy as jnp

if __name__ == "__main__":
    key = jax.random.PRNGKey(42)
    noise = jax.random.normal(key, (4,))
    mask = jax.random.bernoulli(key, 0.5, (4,))
    print(jnp.where(mask, noise, 0.0))
