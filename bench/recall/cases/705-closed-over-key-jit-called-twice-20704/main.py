import jax
jax.config.update('jax_debug_key_reuse', True)

key = jax.random.key(0)

@jax.jit
def f():
  return jax.random.bits(key)

if __name__ == "__main__":
  a = f()
  b = f()  # Should error but doesn't.
  print("same:", bool((a == b).all()))
