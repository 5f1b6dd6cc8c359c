import jax.numpy as jnp

a = jnp.zeros(5)

if __name__ == "__main__":
    jnp.put(a, [0, 2], 1.0)
    print(a)
