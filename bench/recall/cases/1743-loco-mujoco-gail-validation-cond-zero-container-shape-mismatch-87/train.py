import jax

from loco_mujoco_lite.algorithms.gail_jax import make_train
from loco_mujoco_lite.utils.metrics import MetricsHandler

if __name__ == "__main__":
    config = dict(num_envs=4, num_steps=5, num_updates=4, validation_interval=2)
    # the muscle model: every quantity is validated, but it has no relative sites
    mh = MetricsHandler(quantaties=["JointPosition", "RelSitePosition"], rel_site_ids=[])
    try:
        _, metrics = jax.jit(make_train(config, mh))(jax.random.PRNGKey(0))
        print("validated:", metrics.mean_episode_return)
    except TypeError as e:
        print("TypeError:", e)
