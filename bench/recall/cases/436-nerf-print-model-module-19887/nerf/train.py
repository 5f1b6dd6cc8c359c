import jax
import jax.numpy as jnp
import optax

from nerf.models import NerfModel

model = NerfModel()
tx = optax.adam(1e-3)


def loss_fn(params, batch):
    rgb = model.apply(params, batch["encoding"])
    return jnp.mean((rgb - batch["rgb"]) ** 2)


@jax.jit
def train_step(params, opt_state, batch):
    loss, grads = jax.value_and_grad(loss_fn)(params, batch)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss
