import jax

key = jax.random.key(0)

if __name__ == "__main__":
  with jax.debug_key_reuse(True):
    jax.random.uniform(key)
    jax.random.normal(key)
