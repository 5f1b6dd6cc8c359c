from typing import NamedTuple

import jax
import jax.numpy as jnp


class QuantityContainer(NamedTuple):
    qpos: jax.Array
    site_rpos: jax.Array


class ValidationSummary(NamedTuple):
    mean_episode_return: jax.Array
    euclidean_distance: QuantityContainer


class MetricsHandler:

    def __init__(self, quantaties, rel_site_ids):
        self.quantaties = quantaties
        self.rel_site_ids = jnp.asarray(rel_site_ids, dtype=jnp.int32)

    def euclidean_distance(self, env_qpos, traj_qpos, env_site_rpos, traj_site_rpos):
        qpos = jnp.mean(jnp.linalg.norm(env_qpos - traj_qpos, axis=-1))
        site_rpos = jnp.linalg.norm(env_site_rpos - traj_site_rpos, axis=-1, keepdims=True)
        return QuantityContainer(qpos=qpos, site_rpos=site_rpos)

    def get_zero_container(self):
        def _zeros_if_exists(quantity_name):
            return jnp.array(0.0) if quantity_name in self.quantaties else jnp.empty(0)

        container = QuantityContainer(
            qpos=_zeros_if_exists("JointPosition"),
            site_rpos=_zeros_if_exists("RelSitePosition"),
        )

        return ValidationSummary(
            mean_episode_return=jnp.array(0.0),
            euclidean_distance=container,
        )
