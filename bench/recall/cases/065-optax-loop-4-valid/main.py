import jax
import jax.numpy as jnp
import optax


def loss_function(params, data):
    return jnp.mean((data @ params) ** 2)


if __name__ == "__main__":
    params = jnp.ones(3)
    data = jnp.arange(6.0).reshape(2, 3)
    # Setup optimiser
    opt_init, opt_update = optax.adam(learning_rate=1e-3)
    opt_state = opt_init(params)

    # Train
    for epoch_num in range(10):
        # Compute gradients.
        grads = jax.grad(loss_function)(params, data)
        # Transform the gradients using the optimiser.
        updates, opt_state = opt_update(grads, opt_state)
        # Update parameters.
        params = optax.apply_updates(params, updates)
    print("trained", params.shape)
