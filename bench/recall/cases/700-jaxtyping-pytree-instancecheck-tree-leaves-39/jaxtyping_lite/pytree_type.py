import typing

import jax


class _FakeLeaf:
    pass


class _MetaPyTree(type):
    def __call__(self, *args, **kwargs):
        raise RuntimeError("PyTree cannot be instantiated")

    def __instancecheck__(cls, obj):
        if not hasattr(cls, "leaftype"):
            return True  # Just `isinstance(x, PyTree)`
        # Handle beartype's early check on the `__call__` method of PyTree[...]
        if cls.leaftype is typing.Any:
            return True

        def is_leaftype(x):
            return isinstance(x, cls.leaftype)

        leaves = jax.tree_leaves(obj, is_leaf=is_leaftype)
        return all(map(is_leaftype, leaves))

    def __getitem__(cls, item):
        name = f"PyTree[{getattr(item, '__name__', repr(item))}]"
        return _MetaPyTree(name, (), {"leaftype": item})


PyTree = _MetaPyTree("PyTree", (), {})
