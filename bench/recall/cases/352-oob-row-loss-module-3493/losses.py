import jax
import jax.numpy as jnp


def loss(params, obs):
    network_output = params * obs  # Network output has shape [4, 10]
    network_output = network_output[20]  # Bug! 20 is out-of-bounds
    loss = jnp.sum(jax.lax.stop_gradient(params[0]) * network_output)
    return loss
