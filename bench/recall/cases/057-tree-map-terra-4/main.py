import jax
import jax.numpy as jnp

from jax import tree_map


def average_metrics(metrics):
    return tree_map(lambda x: jnp.mean(x), metrics)


if __name__ == "__main__":
    average_metrics({"loss": jnp.arange(3.0)})
