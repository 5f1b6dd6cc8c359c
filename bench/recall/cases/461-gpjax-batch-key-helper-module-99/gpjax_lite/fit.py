import jax

from gpjax_lite.dataset import get_batch_new_key


def fit_batches(objective, params, train_data, n_iters, batch_size, key):
    def step(carry, _):
        params, current_key = carry
        batch, new_key = get_batch_new_key(train_data, batch_size, current_key)
        loss_val, loss_gradient = jax.value_and_grad(objective)(params, batch)
        params = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, loss_gradient)
        return (params, new_key), loss_val

    (params, _), history = jax.lax.scan(step, (params, key), None, length=n_iters)
    return params, history
