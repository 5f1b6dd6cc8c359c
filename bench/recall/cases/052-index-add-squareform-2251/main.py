import jax.numpy as np
from jax import jit
from jax.ops import index_update, index, index_add

n_nodes = 50


@jit
def jax_squareform(edgelist, n=n_nodes):
    """edgelist to adj. matrix"""
    empty = np.zeros((n, n))
    half = index_add(empty, index[np.triu_indices(n, 1)], edgelist)
    full = half + half.T
    return full


if __name__ == "__main__":
    jax_squareform(np.ones(n_nodes * (n_nodes - 1) // 2))
