import jax
import jax.numpy as jnp

from enn_lite.networks.dropout import MLPDropoutENN

if __name__ == "__main__":
  jax.config.update("jax_debug_key_reuse", True)
  enn = MLPDropoutENN(output_sizes=[16, 16, 1], dropout_rate=0.5)
  x = jnp.ones((4, 3))
  try:
    params = enn.init(jax.random.key(0), x, jax.random.key(1))
    index = enn.indexer(jax.random.key(2))
    out = enn.apply(params, x, index)
    print("KeyReuseError: False", out.shape)
  except Exception as e:  # jax.errors.KeyReuseError
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
