import jax

if __name__ == "__main__":
    with jax.debug_key_reuse(True):
        key = jax.random.key(0)
        vals1 = jax.random.uniform(key)
        vals2 = jax.random.uniform(key)  # reused!
