from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("cond",))
def f(x, cond):
    if cond:
        return x
    else:
        return x + 1


if __name__ == "__main__":
    print(f(jnp.array(1), True))
