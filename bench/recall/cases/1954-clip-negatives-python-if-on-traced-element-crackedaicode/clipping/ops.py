import jax
import jax.numpy as jnp


# ❌ Tracer leak — Python `if` on a traced value
def clip_v1(x):
    result = x
    if x[0] < 0:  # error: bool conversion of tracer
        result = result.at[0].set(0)
    return result


# ❌ Index-based loop is also a leak under jit
def clip_v2(x):
    for i in range(len(x)):
        if x[i] < 0:
            x = x.at[i].set(0)
    return x
