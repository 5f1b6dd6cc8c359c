import jax
import jax.numpy as jnp

from .skew import Skew


class Rotation:
    @staticmethod
    def from_axis_angle(vector: jax.Array) -> jax.Array:
        """
        Generate a 3D rotation matrix from an axis-angle representation.

        Args:
            vector (jax.Array): Axis-angle representation as a 3D vector.

        Returns:
            jax.Array: 3D rotation matrix.

        """
        vector = vector.squeeze()
        theta = jnp.linalg.norm(vector)

        def theta_is_not_zero(theta_and_v: tuple[jax.Array, jax.Array]) -> jax.Array:
            theta, v = theta_and_v

            s = jnp.sin(theta)
            c = jnp.cos(theta)

            c1 = 2 * jnp.sin(theta / 2.0) ** 2

            u = v / theta
            u = jnp.vstack(u.squeeze())

            R = c * jnp.eye(3) - s * Skew.wedge(u) + c1 * u @ u.T

            return R.transpose()

        return jax.lax.cond(
            pred=(theta == 0.0),
            true_fun=lambda operand: jnp.eye(3),
            false_fun=theta_is_not_zero,
            operand=(theta, vector),
        )
