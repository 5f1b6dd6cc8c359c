import jax.numpy as jnp

jax_array = jnp.zeros((3, 3), dtype=jnp.float32)

if __name__ == "__main__":
    # In place update of JAX's array will yield an error!
    jax_array[1, :] = 1.0
