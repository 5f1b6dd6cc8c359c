import jax
import jax.numpy as jnp


def cross(parents: jax.Array, recombination_vec: jax.Array, random_key: jax.Array) -> jax.Array:
    samples = jax.random.uniform(random_key, shape=parents.shape[:-1])
    crossover = samples < recombination_vec
    return jnp.where(crossover[..., None], parents, parents[..., ::-1])
