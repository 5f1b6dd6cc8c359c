import jax
import jax.numpy as jnp

from jaxsim_lite.math import Rotation

if __name__ == "__main__":
    # Jacobian of the rotation matrix with respect to the axis-angle vector, at the identity
    J = jax.jacrev(Rotation.from_axis_angle)(jnp.zeros(3))
    print("Jacobian shape:", J.shape, "nan:", bool(jnp.isnan(J).any()))
