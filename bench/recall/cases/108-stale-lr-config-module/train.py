import jax
import jax.numpy as jnp

import config


@jax.jit
def step(params, grads):
    updates = grads * config.extra_learning_rate  # Using the external variable directly
    return params - updates


if __name__ == "__main__":
    params, grads = jnp.ones(2), jnp.ones(2)
    first = step(params, grads)
    config.extra_learning_rate = 0.01  # Will this change affect the next step call?
    second = step(params, grads)
    print("stale:", bool((first == second).all()))
