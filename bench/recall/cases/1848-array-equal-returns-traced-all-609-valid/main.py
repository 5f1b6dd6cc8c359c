import jax.numpy as jnp
import numpy as onp
from jax import jit

import jnp_lite

if __name__ == "__main__":
    x = onp.arange(6.).reshape(2, 3)
    print("eager:", jnp_lite.array_equal(x, x))
    try:
        print("jit:", jit(jnp_lite.array_equal)(x, x))
    except Exception as e:
        print("jit:", type(e).__name__, str(e).splitlines()[0])
