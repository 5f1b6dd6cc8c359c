import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp

from optax_lite.contrib.reduce_on_plateau import reduce_on_plateau

if __name__ == "__main__":
    params = {"w": jnp.ones(3, dtype=jnp.float32)}
    tx = reduce_on_plateau(patience=2, cooldown=1)
    state = tx.init(params)
    updates = {"w": jnp.full(3, 0.5, dtype=jnp.float32)}
    try:
        for loss in [1.0, 1.0, 1.0, 1.0]:
            updates_out, state = tx.update(updates, state, loss=jnp.asarray(loss, jnp.float32))
        print("lr:", state.lr)
    except TypeError as exc:
        print("TypeError", str(exc).splitlines()[0])
