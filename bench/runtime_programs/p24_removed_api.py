import jax
import jax.numpy as jnp


def flatten(tree):
    return jax.tree_flatten(tree)[0]


if __name__ == "__main__":
    print(flatten({"a": jnp.ones(2), "b": jnp.zeros(3)}))
