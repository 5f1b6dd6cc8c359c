import jax.numpy as jnp

r = jnp.ones(3)

if __name__ == "__main__":
    print(r[10])
