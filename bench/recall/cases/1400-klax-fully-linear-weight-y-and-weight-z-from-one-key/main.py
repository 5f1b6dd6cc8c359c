import jax.numpy as jnp
import jax.random as jrandom
from jax.nn.initializers import he_normal

import klax_lite

if __name__ == "__main__":
    key = jrandom.PRNGKey(0)
    layer = klax_lite.nn.FullyLinear(4, 4, 3, he_normal(), key=key)
    y = jnp.ones(4)
    print("output:", layer(y, 2 * y))
    print("same:", bool(jnp.array_equal(layer.weight_y, layer.weight_z)))
