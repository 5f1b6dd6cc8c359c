import jax.numpy as jnp

if __name__ == "__main__":
    weights = jnp.zeros(5)
    weights[2] = 1.0
    print(weights)
