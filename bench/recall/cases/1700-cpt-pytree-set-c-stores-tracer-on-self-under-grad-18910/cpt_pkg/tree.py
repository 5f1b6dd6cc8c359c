import jax


class CPT:

    __slots__ = (
        'a',
        'b',
        'c'
    )

    def __init__(self, *, a, b):
        self.a = a
        self.b = b

    def set_c(self, e, t=None):
        self.c = self.a * self.b * e
        return t

    def get_d(self, t=None):
        return self.c*2 + 1

    def flatten(self):
        return ((self.a, self.b), (['a', 'b'],))

    @classmethod
    def unflatten(cls, aux, vals):
        return cls(
            **dict(zip(aux[0], vals))
        )

    def __repr__(self):
        return (
            f'{self.__class__}'
            f'[a={self.a}, b={self.b}, '
            f'c={getattr(self, "c", None)}]'
        )


jax.tree_util.register_pytree_node(
    CPT, CPT.flatten, CPT.unflatten
)
