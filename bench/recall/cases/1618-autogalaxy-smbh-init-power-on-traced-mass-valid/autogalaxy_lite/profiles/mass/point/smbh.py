import numpy as np
from typing import Tuple

from autogalaxy_lite.profiles.mass.point.point import PointMass


class SMBH(PointMass):
    r"""
    Supermassive black hole (SMBH) modelled as a point mass lens.
    """

    def __init__(
        self,
        centre: Tuple[float, float] = (0.0, 0.0),
        mass: float = 1e10,
        redshift_object: float = 0.5,
        redshift_source: float = 1.0,
    ):
        from autogalaxy_lite.cosmology.model import Planck15

        cosmology = Planck15()

        self.mass = mass

        critical_surface_density = (
            cosmology.critical_surface_density_between_redshifts_from(
                redshift_0=redshift_object,
                redshift_1=redshift_source,
            )
        )
        mass_angular = mass / critical_surface_density
        einstein_radius = (mass_angular / np.pi) ** 0.5

        super().__init__(centre=centre, einstein_radius=einstein_radius)

        self.redshift_object = redshift_object
        self.redshift_source = redshift_source
