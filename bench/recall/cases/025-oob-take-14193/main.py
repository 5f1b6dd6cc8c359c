import jax.numpy as jnp

arr = jnp.arange(5)

if __name__ == "__main__":
    print(jnp.take(arr, 10))  # -2147483648
