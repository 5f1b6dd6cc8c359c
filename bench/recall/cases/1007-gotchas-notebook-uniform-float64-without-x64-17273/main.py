# The "Double (64bit) precision" cell of Common_Gotchas_in_JAX.ipynb as the
# documentation build executed it: the jax_enable_x64 flag was never set.
import jax.numpy as jnp
from jax import random

x = random.uniform(random.PRNGKey(0), (1000,), dtype=jnp.float64)
print(x.dtype)  # --> dtype('float64')
