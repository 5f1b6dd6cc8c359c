import jax
import jax.numpy as jnp

list_of_lists = [[1, 2, 3], [1, 2], [1, 2, 3, 4]]

if __name__ == "__main__":
    another_list_of_lists = list_of_lists
    print(jax.tree_util.tree_multimap(lambda x, y: x + y, list_of_lists, another_list_of_lists))
