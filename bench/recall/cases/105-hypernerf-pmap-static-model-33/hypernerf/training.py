import jax
import jax.numpy as jnp


def train_step(model, rng_key, state, batch):
    def loss_fn(variables):
        out = model.apply(variables, batch)
        return jnp.mean(out ** 2), out

    (loss, model_out), grads = jax.value_and_grad(loss_fn, has_aux=True)(state)
    grads = jax.lax.pmean(grads, axis_name="batch")
    state = jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, state, grads)
    return state, {"loss": loss}, rng_key, model_out
