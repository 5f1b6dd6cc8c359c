class Planck15:
    """Stand-in for autogalaxy's astropy-based Planck15 cosmology."""

    def critical_surface_density_between_redshifts_from(self, redshift_0, redshift_1):
        # solar masses per arcsec^2 for a lens at z=0.5 and a source at z=1.0
        return 3.1e10
