import jax; jax.config.update('jax_debug_key_reuse', True)

if __name__ == "__main__":
    key = jax.random.key(0)
    key1, key2 = jax.random.split(key)
    _, key2 = jax.device_put((key1, key2))
    print("split ok:", jax.random.split(key2).shape)
