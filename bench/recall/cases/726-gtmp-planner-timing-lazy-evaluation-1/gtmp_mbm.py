import time

import jax
import jax.numpy as jnp

from gtmp_lite.planner import gtmp, init_state


def run(seed=0, num_dreams=20, num_layers=2):
    gtmp_state = init_state(jnp.zeros(2), jnp.ones(2), num_dreams, num_layers)
    keys = jax.random.split(jax.random.PRNGKey(seed), num_dreams)
    start = time.time()
    paths = gtmp(keys, gtmp_state)
    planning_time = time.time() - start
    print(f"Planning time: {planning_time:.4f} s")
    return paths


if __name__ == "__main__":
    for seed in range(3):
        run(seed)
