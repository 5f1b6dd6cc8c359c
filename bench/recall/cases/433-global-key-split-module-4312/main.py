import jax

from nets import rng

init = jax.jit(rng.init)

if __name__ == "__main__":
    a = init()
    b = init()
    print(a, b)
    print("repeated randomness:", bool(a == b))
