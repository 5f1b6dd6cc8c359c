import jax
import jax.numpy as jnp

if __name__ == "__main__":
    params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
    n_params = sum(jax.tree_util.tree_leaves(jax.tree_map(lambda x: x.size, params)))
    print(n_params)
