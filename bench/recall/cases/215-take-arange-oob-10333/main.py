import jax.numpy as jnp

out = jnp.take(
    jnp.arange(5),
    jnp.arange(5 * 3),
    axis=0
)

if __name__ == "__main__":
    print(out)
    print("out of bounds filled:", bool((out[5:] != 4).all()))
