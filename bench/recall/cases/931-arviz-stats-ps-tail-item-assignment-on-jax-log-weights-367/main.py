import jax.numpy as jnp
import numpy as np

from arviz_stats_lite.loo import psislw


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    # log-likelihood draws of one observation, backed by JAX as when the
    # InferenceData comes from a JAX sampler
    log_lik = jnp.array(rng.normal(size=2000))
    log_weights, khat = psislw(-log_lik)
    print("khat:", round(float(khat), 3))
