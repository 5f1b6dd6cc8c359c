from typing import NamedTuple

import jax
import jax.numpy as jnp

from jaxsim_lite.api.model import JaxSimModel


class JaxSimModelData(NamedTuple):
    base_position: jax.Array
    base_rpy: jax.Array
    joint_velocities: jax.Array


def random_model_data(
    model: JaxSimModel,
    *,
    key: jax.Array | None = None,
    base_pos_bounds=((-1, -1, 0.5), 1.0),
    base_rpy_bounds=(-jnp.pi, jnp.pi),
    joint_vel_bounds=(-1.0, 1.0),
) -> JaxSimModelData:
    """
    Randomly generate a `JaxSimModelData` object (reduced).
    """

    key = key if key is not None else jax.random.PRNGKey(seed=0)
    k1, k2, k3, k4, k5, k6, k7 = jax.random.split(key, num=7)

    p_min = jnp.array(base_pos_bounds[0], dtype=float)
    p_max = jnp.array(base_pos_bounds[1], dtype=float)
    rpy_min = jnp.array(base_rpy_bounds[0], dtype=float)
    rpy_max = jnp.array(base_rpy_bounds[1], dtype=float)
    ṡ_min, ṡ_max = joint_vel_bounds

    return JaxSimModelData(
        base_position=jax.random.uniform(key=k1, shape=(3,), minval=p_min, maxval=p_max),
        base_rpy=jax.random.uniform(key=k2, shape=(3,), minval=rpy_min, maxval=rpy_max),
        joint_velocities=jax.random.uniform(
            key=k4, shape=(model.dofs(),), minval=ṡ_min, maxval=ṡ_max
        ),
    )
