import jax.numpy as jn

v = jn.arange(10)

if __name__ == "__main__":
    v[2:4] += 1
