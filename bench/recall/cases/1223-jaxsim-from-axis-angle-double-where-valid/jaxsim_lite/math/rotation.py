import jax
import jax.numpy as jnp

from .skew import Skew


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

        def theta_is_not_zero(axis: jax.Array) -> jax.Array:

            v = axis
            theta = jnp.linalg.norm(v)

            s = jnp.sin(theta)
            c = jnp.cos(theta)

            c1 = 2 * jnp.sin(theta / 2.0) ** 2

            u = v / theta
            u = jnp.vstack(u.squeeze())

            R = c * jnp.eye(3) - s * Skew.wedge(u) + c1 * u @ u.T

            return R.transpose()

        # Use the double-where trick to prevent JAX problems when the
        # jax.jit and jax.grad transforms are applied.
        return jnp.where(
            jnp.linalg.norm(vector) > 0,
            theta_is_not_zero(
                axis=jnp.where(
                    jnp.linalg.norm(vector) > 0,
                    vector,
                    # The following line is a workaround to prevent division by 0.
                    # Considering the outer where, this branch is never executed.
                    jnp.ones(3),
                )
            ),
            # Return an identity rotation matrix when the input vector is zero.
            jnp.eye(3),
        )
