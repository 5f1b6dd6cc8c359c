import jax
import jax.numpy as jnp
import numpy as np

from jax import grad, jit, vmap, pmap

# 1) Impure functions are problematic.

g = 0.  # state

def impure_uses_global(x):
    return x + g

# JAX captures the value of the global/state during the first run
print("First call:", jit(impure_uses_global)(4.))

g = 10.

second = jit(impure_uses_global)(5.)
print("Second call:", second)

if __name__ == "__main__":
    print("stale:", float(second) == 5.0)
