import jax.numpy as jnp

if __name__ == "__main__":
    print(jnp.sum([1, 2, 3]))
