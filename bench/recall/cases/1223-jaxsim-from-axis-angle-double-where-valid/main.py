import jax
import jax.numpy as jnp

from jaxsim_lite.math import Rotation


def tip_position(axis_angle, link_length=0.5):
    # position of a link's tip after the joint rotation given as an axis-angle vector
    R = Rotation.from_axis_angle(axis_angle)
    return R @ jnp.array([0.0, 0.0, link_length])


def loss(axis_angle, target):
    return jnp.sum((tip_position(axis_angle) - target) ** 2)


if __name__ == "__main__":
    target = jnp.array([0.1, 0.0, 0.45])
    grad = jax.grad(loss)(jnp.zeros(3), target)  # the optimisation starts at the identity rotation
    print("gradient at the zero rotation:", grad, "nan:", bool(jnp.isnan(grad).any()))
