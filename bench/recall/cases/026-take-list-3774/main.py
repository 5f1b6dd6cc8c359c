import jax.numpy as jnp

x = jnp.array(
  [[1, 2, 3],
   [4, 5, 6],
   [7, 8, 9]])

if __name__ == "__main__":
    print(x.take([4], axis=0))
