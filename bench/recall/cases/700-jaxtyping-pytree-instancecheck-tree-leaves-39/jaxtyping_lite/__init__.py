from .pytree_type import PyTree
