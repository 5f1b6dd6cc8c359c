import functools
import copy
import jax.numpy as np
from functools import partial
from jax import jit


__all__ = ['LensImage']


def gaussian(x, y, amp, sigma, center_x=0., center_y=0.):
    r2 = (x - center_x)**2 + (y - center_y)**2
    return amp * np.exp(-r2 / (2. * sigma**2))


class LensImage(object):
    """Generate lensed images from source light and lens mass/light models."""

    def __init__(self, num_pix, pixel_width):
        # stand-in for the PixelGrid, PSF, lens and light model classes:
        # a square grid, a singular isothermal lens, Gaussian light profiles
        self.num_pixel_axes = (num_pix, num_pix)
        coords = (np.arange(num_pix) - (num_pix - 1) / 2.) * pixel_width
        self.x_grid, self.y_grid = np.meshgrid(coords, coords)

    def source_surface_brightness(self, kwargs_source, kwargs_lens=None,
                                  unconvolved=False, de_lensed=False, k=None):
        x, y = self.x_grid, self.y_grid
        if not de_lensed and kwargs_lens:
            theta_E = kwargs_lens[0]['theta_E']
            r = np.sqrt(x**2 + y**2) + 1e-8
            x, y = x - theta_E * x / r, y - theta_E * y / r
        return sum(gaussian(x, y, **kw) for kw in kwargs_source)

    def lens_surface_brightness(self, kwargs_lens_light, unconvolved=False, k=None):
        return sum(gaussian(self.x_grid, self.y_grid, **kw) for kw in kwargs_lens_light)

    @partial(jit, static_argnums=(0, 3, 4, 5))
    def model(self, kwargs_lens=None, kwargs_source=None,
              kwargs_lens_light=None, unconvolved=False, source_add=True,
              lens_light_add=True):
        """
        make an image from parameter values
        """
        model = np.zeros((self.num_pixel_axes))
        if source_add is True:
            model += self.source_surface_brightness(kwargs_source, kwargs_lens, unconvolved=unconvolved)
        if lens_light_add is True:
            model += self.lens_surface_brightness(kwargs_lens_light, unconvolved=unconvolved)
        return model
