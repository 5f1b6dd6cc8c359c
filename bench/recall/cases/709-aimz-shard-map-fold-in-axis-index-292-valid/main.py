import jax
import jax.numpy as jnp

from aimz_lite import sample_posterior_predictive

if __name__ == "__main__":
    n_dev = jax.device_count()
    loc = jnp.zeros(2 * n_dev)
    out = sample_posterior_predictive(jax.random.key(0), loc)
    shards = out.reshape(out.shape[0], n_dev, 2)
    print("devices:", n_dev)
    print("identical noise on every shard:", bool(jnp.all(shards[:, 0] == shards[:, 1])))
