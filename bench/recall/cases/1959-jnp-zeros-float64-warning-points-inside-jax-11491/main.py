import jax.numpy as jnp

if __name__ == "__main__":
    x = jnp.zeros(2, jnp.float64)
    print("dtype:", x.dtype)
