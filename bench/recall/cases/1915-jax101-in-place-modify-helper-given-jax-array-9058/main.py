import numpy as np
import jax.numpy as jnp

from basics.side_effects import in_place_modify

if __name__ == "__main__":
  x = np.array([1, 2, 3])
  in_place_modify(x)
  print("numpy:", x)
  try:
    in_place_modify(jnp.array(x))  # Raises error when we cast input to jnp.ndarray
  except TypeError as e:
    print("TypeError:", str(e).split(".")[0])
