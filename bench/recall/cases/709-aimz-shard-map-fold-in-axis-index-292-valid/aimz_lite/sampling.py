from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P


def _draw(rng_key, loc, num_samples):
    keys = jax.random.split(rng_key, num_samples)
    return jax.vmap(lambda k: loc + jax.random.normal(k, loc.shape))(keys)


def sample_posterior_predictive(rng_key, loc, num_samples=4, shard_axis="obs"):
    devices = jax.devices()
    mesh = Mesh(devices, (shard_axis,))

    @partial(
        jax.shard_map,
        mesh=mesh,
        in_specs=(P(), P(shard_axis)),
        out_specs=P(None, shard_axis),
    )
    def _sharded(rng_key, loc):
        rng_key = jax.random.fold_in(rng_key, jax.lax.axis_index(shard_axis))
        return _draw(rng_key, loc, num_samples)

    return _sharded(rng_key, loc)
