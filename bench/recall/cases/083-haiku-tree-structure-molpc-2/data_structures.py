import jax

PyTreeDef = type(jax.tree_structure(None))


class FlatMap:
    def __init__(self, mapping):
        leaves, structure = jax.tree_flatten(mapping)
        self._structure = structure
        self._leaves = leaves
        self._mapping = jax.tree_unflatten(self._structure, self._leaves)


if __name__ == "__main__":
    FlatMap({"a": 1})
