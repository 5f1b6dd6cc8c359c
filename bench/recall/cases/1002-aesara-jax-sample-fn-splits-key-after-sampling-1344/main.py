import jax
import jax.numpy as jnp

from aesara_lite.link.jax.dispatch.random import NormalRV, jax_sample_fn

if __name__ == "__main__":
    sample_fn = jax_sample_fn(NormalRV())
    rng = {"jax_state": jax.random.key(0)}
    try:
        with jax.debug_key_reuse(True):
            rng, x = sample_fn(rng, (3,), jnp.float32, 0.0, 1.0)
            rng, y = sample_fn(rng, (3,), jnp.float32, 0.0, 1.0)
        print("no key reuse")
    except Exception as exc:
        print(type(exc).__name__, exc)
