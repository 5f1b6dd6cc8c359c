import jax.numpy as jnp

from herculens_lite.Util import jax_util


class EPLMajorAxis(object):
    """
    This class contains the function and the derivatives of the
    elliptical power law.

    kappa = (2-t)/2 * [b/sqrt(q^2 x^2 + y^2)]^t
    where t = gamma - 1 (from EPL class)
    Tessore & Metcalf (2015), https://arxiv.org/abs/1507.01819
    """
    param_names = ['b', 't', 'q', 'center_x', 'center_y']

    def derivatives(self, x, y, b, t, q):
        """
        returns the deflection
        """
        # elliptical radius, eq. (5) of Tessore et al. 2015
        z = q * x + y * 1j
        R = jnp.abs(z)
        # deflection, eq. (22)
        alpha = 2. / (1. + q) * (b / R)**t * jax_util.R_omega(z, t, q, nmax=20)
        # return real and imaginary part
        alpha_real = alpha.real # jnp.nan_to_num(alpha.real, posinf=1e8, neginf=-1e8)
        alpha_imag = alpha.imag # jnp.nan_to_num(alpha.imag, posinf=1e8, neginf=-1e8)

        return alpha_real, alpha_imag
