import equinox as eqx
import jax.numpy as jnp

class Box(eqx.Module):
    """Bounding Box for an object"""

    shape: tuple
    origin: tuple

    def __init__(self, shape, origin=None):
        self.shape = tuple(shape)
        if origin is None:
            origin = (0,) * len(shape)
        self.origin = tuple(origin)

    @staticmethod
    def from_bounds(*bounds):
        shape = tuple(max(0, cmax - cmin) for cmin, cmax in bounds)
        origin = (cmin for cmin, cmax in bounds)
        return Box(shape, origin=origin)

    def insert_into(self, image, sub):
        """Insert `sub` into `image` according to this bbox"""
        imbox = Box(image.shape)

        im_slices, sub_slices = overlap_slices(imbox, self)
        image = image.at[im_slices].set(sub[sub_slices])
        return image

    @property
    def D(self):
        return len(self.shape)

    @property
    def start(self):
        return self.origin

    @property
    def stop(self):
        return tuple(o + s for o, s in zip(self.origin, self.shape))

    @property
    def slices(self):
        return tuple([slice(o, o + s) for o, s in zip(self.origin, self.shape)])

    def __and__(self, other):
        if other.D != self.D:
            raise ValueError(f"Dimension mismatch in the boxes {other} and {self}")
        assert other.D == self.D
        bounds = []
        for d in range(self.D):
            bounds.append(
                (max(self.start[d], other.start[d]), min(self.stop[d], other.stop[d]))
            )
        return Box.from_bounds(*bounds)

    def __add__(self, offset):
        if not hasattr(offset, "__iter__"):
            offset = (offset,) * self.D
        origin = tuple([a + o for a, o in zip(self.origin, offset)])
        return Box(self.shape, origin=origin)

    def __sub__(self, offset):
        if not hasattr(offset, "__iter__"):
            offset = (offset,) * self.D
        origin = tuple([a - o for a, o in zip(self.origin, offset)])
        return Box(self.shape, origin=origin)


def overlap_slices(bbox1, bbox2, return_boxes=False):
    overlap = bbox1 & bbox2
    _bbox1 = overlap - bbox1.origin
    _bbox2 = overlap - bbox2.origin
    if return_boxes:
        return _bbox1, _bbox2
    slices = (
        _bbox1.slices,
        _bbox2.slices,
    )
    return slices
