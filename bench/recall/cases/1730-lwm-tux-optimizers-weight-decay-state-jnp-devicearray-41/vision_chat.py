import jax.numpy as jnp
import optax

from tux_lite import optax_add_scheduled_weight_decay


if __name__ == "__main__":
    params = {"w": jnp.ones(3)}
    tx = optax.chain(
        optax.adam(1e-3),
        optax_add_scheduled_weight_decay(lambda step: -1e-4 * (step + 1)),
    )
    state = tx.init(params)
    updates, state = tx.update({"w": jnp.ones(3)}, state, params)
    print("updates:", updates["w"])
