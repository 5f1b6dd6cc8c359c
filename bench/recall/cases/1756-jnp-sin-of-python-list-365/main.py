import jax.numpy as jnp

if __name__ == "__main__":
    print(jnp.sin([0.2, 0.4]))
