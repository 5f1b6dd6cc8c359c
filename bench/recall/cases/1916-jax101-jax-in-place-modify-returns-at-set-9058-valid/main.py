import jax.numpy as jnp

from basics.side_effects import jax_in_place_modify

if __name__ == "__main__":
  y = jnp.array([1, 2, 3])
  print("updated:", jax_in_place_modify(y))
  print("original:", y)
