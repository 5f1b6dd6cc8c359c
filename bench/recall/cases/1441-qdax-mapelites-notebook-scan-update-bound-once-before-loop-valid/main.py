# examples/mapelites.ipynb's main loop, with a toy task in place of the brax one
import time

import jax
import jax.numpy as jnp

from qdax_lite.core.map_elites import MAPElites


class GaussianEmitter:
    """Mutates random elites of the repertoire (stand-in for MixingEmitter)."""

    def emit(self, repertoire, emitter_state, random_key):
        random_key, k1, k2 = jax.random.split(random_key, 3)
        idx = jax.random.randint(k1, (16,), 0, repertoire.genotypes.shape[0])
        parents = repertoire.genotypes[idx]
        return parents + 0.1 * jax.random.normal(k2, parents.shape), random_key


def scoring_fn(genotypes, random_key):
    fitnesses = -jnp.sum(genotypes ** 2, axis=1)
    descriptors = jax.nn.sigmoid(genotypes[:, :2])
    return fitnesses, descriptors, {}, random_key


def metrics_function(repertoire):
    return {"max_fitness": jnp.max(repertoire.fitnesses)}


if __name__ == "__main__":
    num_loops, log_period = 4, 5
    random_key = jax.random.PRNGKey(0)
    random_key, subkey = jax.random.split(random_key)
    init_variables = jax.random.normal(subkey, (16, 4))
    centroids = jnp.stack(jnp.meshgrid(jnp.linspace(0, 1, 4), jnp.linspace(0, 1, 4)), -1).reshape(-1, 2)

    map_elites = MAPElites(
        scoring_function=scoring_fn,
        emitter=GaussianEmitter(),
        metrics_function=metrics_function,
    )
    repertoire, emitter_state, random_key = map_elites.init(init_variables, centroids, random_key)

    # main loop
    map_elites_scan_update = map_elites.scan_update
    for i in range(num_loops):
        start_time = time.time()
        # main iterations
        (repertoire, emitter_state, random_key,), metrics = jax.lax.scan(
            map_elites_scan_update,
            (repertoire, emitter_state, random_key),
            (),
            length=log_period,
        )
        timelapse = time.time() - start_time
    print("max fitness:", float(metrics["max_fitness"][-1]))
