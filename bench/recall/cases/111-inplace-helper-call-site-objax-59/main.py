import jax.numpy as jn

from ops import bump

if __name__ == "__main__":
    v = jn.arange(10)
    bump(v, 2, 4)
