import jax


class Array2D:
    """Stand-in for autoarray's Array2D: the values, and a copy holding new values."""

    def __init__(self, values):
        self._array = values

    @property
    def array(self):
        return self._array

    def with_new_array(self, array):
        return Array2D(array)


jax.tree_util.register_pytree_node(
    Array2D, lambda a: ((a._array,), None), lambda aux, children: Array2D(children[0])
)
