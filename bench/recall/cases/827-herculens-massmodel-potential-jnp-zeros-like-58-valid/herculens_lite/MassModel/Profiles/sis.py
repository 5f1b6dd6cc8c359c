import jax.numpy as jnp


class SIS(object):
    """Singular isothermal sphere."""

    param_names = ['theta_E', 'center_x', 'center_y']

    def function(self, x, y, theta_E, center_x=0, center_y=0):
        x_ = x - center_x
        y_ = y - center_y
        return theta_E * jnp.sqrt(x_**2 + y_**2)

    def derivatives(self, x, y, theta_E, center_x=0, center_y=0):
        x_ = x - center_x
        y_ = y - center_y
        r = jnp.maximum(jnp.sqrt(x_**2 + y_**2), 1e-8)
        return theta_E * x_ / r, theta_E * y_ / r
