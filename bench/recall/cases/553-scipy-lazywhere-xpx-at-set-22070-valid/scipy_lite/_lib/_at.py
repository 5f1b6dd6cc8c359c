class at:
    """Minimal ``xpx.at``: ``at(x, idx).set(y)`` returns an updated array.

    JAX arrays are updated with their ``.at[]`` property; other arrays are copied and
    assigned (``copy=None`` would update NumPy arrays in place).
    """

    def __init__(self, x, idx):
        self.x = x
        self.idx = idx

    def set(self, y, copy=None):
        if hasattr(self.x, "at"):
            return self.x.at[self.idx].set(y)
        out = self.x if copy is None else self.x.copy()
        out[self.idx] = y
        return out
