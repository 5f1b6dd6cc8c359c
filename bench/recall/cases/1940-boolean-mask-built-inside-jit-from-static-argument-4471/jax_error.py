from functools import partial

import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnums=(1,))
def create_mask_inside_jitted_function(x, y):
    # the mask depends only on the static argument y
    mask = jnp.arange(x.shape[0]) < y
    return x[mask].sum()


wont_work = create_mask_inside_jitted_function

if __name__ == "__main__":
    x = jnp.arange(5.0)
    y = 3
    try:
        print(wont_work(x, y))
    except IndexError as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
