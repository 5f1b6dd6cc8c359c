__all__ = ["LensedPositions"]


class LensedPositions(object):
    """Class of a lensed point source parameterized as the (multiple) observed image
    positions (the lens equation solver and magnifications removed)."""

    def image_position(
        self,
        kwargs_ps,
        kwargs_lens=None,
        magnification_limit=None,
        kwargs_lens_eqn_solver=None,
        additional_images=False,
    ):
        ra_image = kwargs_ps["ra_image"]
        dec_image = kwargs_ps["dec_image"]
        return ra_image, dec_image
