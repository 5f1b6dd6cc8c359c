import jax
jax.config.update('jax_debug_key_reuse', True)

def f(seed):
    key = jax.random.key(seed)
    vals1 = jax.random.bits(key)
    vals2 = jax.random.bits(key)
    return vals1 + vals2

if __name__ == "__main__":
    jax.jit(f)(0)
