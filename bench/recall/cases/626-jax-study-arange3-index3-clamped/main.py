import numpy as np

import jax
import jax.numpy as jnp
from jax import lax
from jax import grad, jit
from jax import random

# out-of_bounds indexing

## NumPy: throws error
# np.arange(3)[3]  # forbidden: throws error

## JAX: do something that's non-error
### 1) array index retrieval operations: index is clamped to the bounds of the array
print(jnp.arange(3)[3])

print(jnp.arange(3).at[3].get())

# set to nan if out-of-bounds
print(jnp.arange(3.0).at[3].get(mode="fill", fill_value=jnp.nan))

if __name__ == "__main__":
    print("last element returned:", int(jnp.arange(3)[-1]) == 2)
