import jax
import jax.numpy as jnp


@jax.jit
def step(params, grads, extra_lr):
    updates = grads * extra_lr  # Using the argument
    return params - updates


if __name__ == "__main__":
    params, grads = jnp.ones(2), jnp.ones(2)
    extra_learning_rate = 0.1
    first = step(params, grads, extra_learning_rate)
    extra_learning_rate = 0.01
    second = step(params, grads, extra_learning_rate)
    print("stale:", bool((first == second).all()))
