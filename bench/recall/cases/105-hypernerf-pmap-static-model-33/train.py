import jax
import jax.numpy as jnp

from hypernerf import models
from hypernerf import training


def main():
    model = models.NerfModel(embeddings_dict={"warp": [0, 1], "appearance": [0, 1]})
    state = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    state = jax.tree_util.tree_map(lambda x: x[None], state)
    keys = jax.random.split(jax.random.PRNGKey(1), jax.local_device_count())
    ptrain_step = jax.pmap(
        training.train_step, axis_name="batch", static_broadcasted_argnums=(0,))
    batch = jnp.ones((jax.local_device_count(), 4, 3))
    state, stats, keys, model_out = ptrain_step(model, keys, state, batch)


if __name__ == "__main__":
    main()
