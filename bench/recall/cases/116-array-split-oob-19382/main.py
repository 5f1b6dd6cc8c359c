import jax.numpy as jnp

array = jnp.arange(5 * 100 * 4 * 4, dtype=jnp.float32).reshape(500, 4, 4)
chunks = 5

x = jnp.array_split(array, chunks)
x = jnp.array(x)

if __name__ == "__main__":
    print(x.shape)
    last = x[5]  # returns last batch rather than throw an error
    print("clamped to last batch:", bool((last == x[4]).all()))
