import jax
import jax.numpy as jnp


def loss(params, obs):
    network_output = params * obs  # Network output has shape [4, 10]
    network_output = network_output[20]  # Bug! 20 is out-of-bounds
    # Weird stop-gradient is required to trigger the error.
    loss = jnp.sum(jax.lax.stop_gradient(params[0]) * network_output)
    return loss


def update(params, obs):
    grad = jax.grad(loss)(params, obs)
    return params + grad


params = jnp.ones((10,))
obs = jnp.ones((4, 10))

if __name__ == "__main__":
    print(update(params, obs))
    print(jax.jit(update)(params, obs))
    out = params * obs
    print("clamped:", bool((out[20] == out[3]).all()))
