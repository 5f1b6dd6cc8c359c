# test.py
import jax

jax.config.update('jax_debug_key_reuse', True)

def f(seed):
    key = jax.random.key(seed)
    x = jax.random.uniform(key)
    y = 2 * x
    y += jax.random.normal(key)
    return 2 * y

if __name__ == "__main__":
    print(f(42))
