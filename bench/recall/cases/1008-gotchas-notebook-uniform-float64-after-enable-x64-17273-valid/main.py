# The "Double (64bit) precision" cell of Common_Gotchas_in_JAX.ipynb with the
# flag the notebook describes set at startup.
import jax
jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
from jax import random

x = random.uniform(random.PRNGKey(0), (1000,), dtype=jnp.float64)
print(x.dtype)  # --> dtype('float64')
