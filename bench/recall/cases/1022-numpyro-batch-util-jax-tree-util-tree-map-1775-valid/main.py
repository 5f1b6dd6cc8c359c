import jax.numpy as jnp

from numpyro_lite.distributions.batch_util import _promote_batch_shape_expanded

if __name__ == "__main__":
    d = {"base_dist": {"loc": jnp.zeros(3), "scale": jnp.ones(3)}}
    out = _promote_batch_shape_expanded(d, (2,), (1,))
    print(out["base_dist"]["loc"].shape)
