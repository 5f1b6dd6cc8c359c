"""
Useful utility functions.
"""

import jax.numpy as np
import jax.random as jr
import jax.scipy.special as spsp
from jax import vmap, lax, tree_multimap
from jax.tree_util import tree_map, tree_structure, tree_leaves, tree_reduce, tree_multimap

from enum import IntEnum


class Verbosity(IntEnum):
    """
    Convenience alias class for Verbosity values.
    """

    OFF = 0
    QUIET = 1
    LOUD = 2
    DEBUG = 3


def tree_get(tree, idx):
    """Idx the leaves of the PyTree."""
    return tree_map(lambda x: x[idx], tree)


def tree_concatenate(tree1, tree2, axis=0):
    """Concatenate leaves of two pytrees along specified axis."""
    return tree_map(lambda x, y: np.concatenate((x, y), axis=axis), tree1, tree2)


def tree_all_equal(tree1, tree2):
    """Check Pytree equality when tree leaves are arrays.

    Returns:
        isEqual (bool): whether array PyTrees are equal
    """
    return tree_reduce(
        lambda x, y: np.all(x) == np.all(y) == True,
        tree_multimap(lambda x, y: np.all(x == y), tree1, tree2),
        True
    )
