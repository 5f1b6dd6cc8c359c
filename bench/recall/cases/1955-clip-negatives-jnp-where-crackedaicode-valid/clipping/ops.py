import jax
import jax.numpy as jnp


# ✅ Vectorized & jit-safe
def clip_v3(x):
    return jnp.where(x < 0, 0, x)
