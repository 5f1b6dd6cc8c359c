import jax
import jax.numpy as jnp

from loco_mujoco_lite.utils.metrics import MetricsHandler, ValidationSummary


def make_train(config, mh: MetricsHandler):
    n_envs, n_steps = config["num_envs"], config["num_steps"]
    n_sites = mh.rel_site_ids.shape[0]

    def train(rng):

        def _evaluation_step():
            env_qpos = jax.random.normal(rng, (n_envs, n_steps, 3))
            traj_qpos = jnp.zeros((n_envs, n_steps, 3))
            env_site_rpos = jnp.ones((n_envs, n_steps, n_sites, 3))
            traj_site_rpos = jnp.zeros((n_envs, n_steps, n_sites, 3))
            dist = mh.euclidean_distance(env_qpos, traj_qpos, env_site_rpos, traj_site_rpos)
            return ValidationSummary(mean_episode_return=jnp.sum(env_qpos) / n_envs,
                                     euclidean_distance=dist)

        def _update_step(counter, _):
            if mh is None:
                validation_metrics = ValidationSummary()
            else:
                validation_metrics = jax.lax.cond(counter % config["validation_interval"] == 0, _evaluation_step, mh.get_zero_container)
            return counter + 1, validation_metrics

        return jax.lax.scan(_update_step, 0, None, length=config["num_updates"])

    return train
