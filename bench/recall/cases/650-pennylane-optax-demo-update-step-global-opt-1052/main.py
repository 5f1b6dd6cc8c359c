import jax
import jax.numpy as jnp
import optax

# the demo defines an optimizer at module level earlier on
opt = optax.adam(learning_rate=0.3)


def loss_fn(params, data, targets):
    predictions = jnp.tanh(data @ params["weights"])
    return jnp.mean((targets - predictions) ** 2)


@jax.jit
def update_step_jit(i, args):
    params, opt_state, data, targets, print_training = args
    loss_val, grads = jax.value_and_grad(loss_fn)(params, data, targets)
    updates, opt_state = opt.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return (params, opt_state, data, targets, print_training)


@jax.jit
def optimization_jit(params, data, targets, print_training=False):
    opt = optax.adam(learning_rate=0.0)  # the optimizer this run means to use
    opt_state = opt.init(params)
    args = (params, opt_state, data, targets, print_training)
    (params, opt_state, _, _, _) = jax.lax.fori_loop(0, 10, update_step_jit, args)
    return params


if __name__ == "__main__":
    data = jnp.ones((4, 2))
    targets = jnp.ones(4)
    params = {"weights": jnp.zeros(2)}
    new_params = optimization_jit(params, data, targets)
    print("params moved with a zero learning rate:", bool(jnp.any(new_params["weights"] != 0)))
