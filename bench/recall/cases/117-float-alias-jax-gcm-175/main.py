import jax.numpy as jnp

if __name__ == "__main__":
    temperature = jnp.zeros((8, 16), dtype=jnp.float_)
    print(temperature.dtype)
