import haiku as hk
import jax
import jax.numpy as jnp

from quarks2cosmos_lite.models.vae import Decoder


def decode(z, is_training=False):
  return Decoder()(z, is_training)


if __name__ == "__main__":
  model = hk.transform(decode)
  z = jnp.zeros((2, 8))
  params = model.init(jax.random.PRNGKey(0), z)  # outside jit: jnp.arange(5) is concrete
  print("init ok")
  out = jax.jit(model.apply)(params, None, z)
  print(out.shape)
