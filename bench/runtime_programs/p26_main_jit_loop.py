import jax
import jax.numpy as jnp

if __name__ == "__main__":
    x = jnp.ones(4)
    for step in range(3):
        x = jax.jit(lambda v: v * 0.5)(x)
    print(x)
