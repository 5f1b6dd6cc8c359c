from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def moment(x, order):
    return jnp.mean(x ** order)


if __name__ == "__main__":
    data = jnp.linspace(0.0, 1.0, 16)
    for order in range(1, 5):
        print(order, moment(data, order))
