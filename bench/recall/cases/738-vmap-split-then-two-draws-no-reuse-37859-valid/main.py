from jax import random, config, vmap

config.update('jax_debug_key_reuse', True)

def f(key):
    a, b = random.split(key)
    return random.normal(a) + random.normal(b)  # no reuse

if __name__ == "__main__":
    # Sanity check: f is fine for any non-empty batch of keys
    non_empty = random.split(random.key(0), 3)
    print("non-empty:", vmap(f)(non_empty).shape)  # ok

    # Same function, but the leading axis happens to be 0:
    empty = random.split(random.key(1), 0)
    assert empty.shape == (0,)
    print("empty:", vmap(f)(empty).shape)
