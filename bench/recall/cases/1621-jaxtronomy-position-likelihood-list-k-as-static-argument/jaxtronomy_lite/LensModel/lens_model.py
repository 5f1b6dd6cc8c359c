from functools import partial

from jax import jit, numpy as jnp

__all__ = ["LensModel"]


class SinglePlane(object):
    """Sum of singular isothermal spheres (stand-in for the profile list)."""

    def ray_shooting(self, x, y, kwargs, k=None):
        f_x, f_y = 0.0, 0.0
        for i, kw in enumerate(kwargs):
            if k is not None and i not in k:
                continue
            dx, dy = x - kw["center_x"], y - kw["center_y"]
            r = jnp.sqrt(dx**2 + dy**2)
            f_x = f_x + kw["theta_E"] * dx / r
            f_y = f_y + kw["theta_E"] * dy / r
        return x - f_x, y - f_y


class LensModel(object):
    """Class to handle an arbitrary list of lens models."""

    def __init__(self, lens_model_list):
        self.lens_model_list = lens_model_list
        self.lens_model = SinglePlane()

    @partial(jit, static_argnums=(0, 4))
    def ray_shooting(self, x, y, kwargs, k=None):
        """Maps image to source position (inverse deflection)

        :param k: only evaluate the k-th lens model
        :type k: None, int, or tuple of ints
        :return: source plane positions corresponding to (x, y) in the image plane
        """
        return self.lens_model.ray_shooting(x, y, kwargs, k=k)
