import jax

from sampling import t


@jax.jit
def draw(key):
    return t(key, 3.0, (4,))


if __name__ == "__main__":
    with jax.debug_key_reuse(True):
        print(draw(jax.random.key(0)))
