import jax
import jax.numpy as jnp

from .skew import Skew
from .utils import safe_norm


class Rotation:
    @staticmethod
    def from_axis_angle(vector: jax.Array) -> jax.Array:
        """
        Generate a 3D rotation matrix from an axis-angle representation.

        Args:
            vector: Axis-angle representation or the rotation as a 3D vector.

        Returns:
            The SO(3) rotation matrix.
        """

        vector = vector.squeeze()

        theta = safe_norm(vector)

        s = jnp.sin(theta)
        c = jnp.cos(theta)

        c1 = 2 * jnp.sin(theta / 2.0) ** 2

        safe_theta = jnp.where(theta == 0, 1.0, theta)
        u = vector / safe_theta
        u = jnp.vstack(u.squeeze())

        R = c * jnp.eye(3) - s * Skew.wedge(u) + c1 * u @ u.T

        return R.transpose()
