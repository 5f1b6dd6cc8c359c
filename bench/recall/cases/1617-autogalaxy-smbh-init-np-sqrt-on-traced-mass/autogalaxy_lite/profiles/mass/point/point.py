import numpy as np
from typing import Tuple


class PointMass:
    r"""
    Point mass lens profile.
    """

    def __init__(
        self, centre: Tuple[float, float] = (0.0, 0.0), einstein_radius: float = 1.0
    ):
        self.centre = centre
        self.einstein_radius = einstein_radius

    def convergence_2d_from(self, grid, xp=np, **kwargs):
        return xp.zeros(grid.shape[0])

    def potential_2d_from(self, grid, xp=np, **kwargs):
        y = xp.asarray(grid[:, 0])
        x = xp.asarray(grid[:, 1])
        r = xp.sqrt(y**2 + x**2 + 1e-20)
        return self.einstein_radius**2 * xp.log(r)

    def deflections_yx_2d_from(self, grid, xp=np, **kwargs):
        y = xp.asarray(grid[:, 0])
        x = xp.asarray(grid[:, 1])
        alpha = self.einstein_radius**2 / (y**2 + x**2 + 1e-20)
        return xp.stack((alpha * y, alpha * x), axis=-1)

    @property
    def is_point_mass(self):
        return True
