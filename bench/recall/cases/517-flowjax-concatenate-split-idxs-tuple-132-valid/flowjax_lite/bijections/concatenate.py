from collections.abc import Sequence
from itertools import accumulate

import equinox as eqx
import jax
import jax.numpy as jnp


class Concatenate(eqx.Module):
    """Concatenate bijections along an existing axis, similar to ``jnp.concatenate``."""

    shape: tuple[int, ...]
    split_idxs: tuple[int, ...]
    bijections: Sequence[eqx.Module]
    axis: int

    def __init__(self, bijections, axis: int = 0):
        self.bijections = bijections
        self.axis = axis

        shapes = [b.shape for b in bijections]
        axis = range(len(shapes[0]))[axis]  # Avoids issues when axis==-1
        self.shape = (
            shapes[0][:axis] + (sum(s[axis] for s in shapes),) + shapes[0][axis + 1 :]
        )
        self.split_idxs = tuple(accumulate([s[axis] for s in shapes[:-1]]))

    def transform(self, x, condition=None):
        x_parts = jnp.array_split(x, self.split_idxs, axis=self.axis)
        ys = [
            b.transform(x_part, condition)
            for b, x_part in zip(self.bijections, x_parts, strict=True)
        ]
        return jnp.concatenate(ys, axis=self.axis)
