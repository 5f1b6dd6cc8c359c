import jax.numpy as jnp


class Skew:
    """
    A utility class for skew-symmetric matrix operations.
    """

    @staticmethod
    def wedge(vector):
        """
        Compute the skew-symmetric matrix (wedge operator) of a 3D vector.

        Args:
            vector (jtp.Vector): A 3D vector.

        Returns:
            jtp.Matrix: The skew-symmetric matrix corresponding to the input vector.

        """
        vector = vector.squeeze()
        x, y, z = vector
        skew = jnp.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
        return skew
