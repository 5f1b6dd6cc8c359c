import jax
import jax.numpy as jnp

from trax_lite.layers.research.efficient_attention import LSHSelfAttention

if __name__ == '__main__':
  jax.config.update('jax_debug_key_reuse', True)
  layer = LSHSelfAttention(n_heads=2, d_qk=8, d_v=8)
  signature = jax.ShapeDtypeStruct((3, 16, 32), jnp.float32)
  try:
    weights, state = layer.init(signature, rng=jax.random.key(1))
    print('KeyReuseError: False', len(weights), state[1].shape)
  except Exception as e:  # jax.errors.KeyReuseError
    print(f'{type(e).__name__}: {str(e).splitlines()[0][:70]}')
