import jax
import jax.numpy as jnp
from flax import struct

NUM_TILES = 34


@struct.dataclass
class State:
    wall: jax.Array = struct.field(default_factory=lambda: jnp.zeros(NUM_TILES, dtype=jnp.int32))
    rng_key: jax.Array = struct.field(default_factory=lambda: jax.random.PRNGKey(0))


def _make_state(wall, **kwargs):
    return State(wall=wall, **kwargs)


def _init(rng):
    rng, subkey = jax.random.split(rng)
    wall = jax.random.permutation(rng, jnp.arange(NUM_TILES))
    return _make_state(wall)


def _next_round(state):
    rng_key, key = jax.random.split(state.rng_key)
    wall = jax.random.permutation(key, jnp.arange(NUM_TILES))
    return state.replace(wall=wall, rng_key=rng_key)


if __name__ == "__main__":
    s0 = _next_round(_init(jax.random.PRNGKey(0)))
    s1 = _next_round(_init(jax.random.PRNGKey(424242)))
    print("second-hand walls identical across seeds:", bool(jnp.all(s0.wall == s1.wall)))
