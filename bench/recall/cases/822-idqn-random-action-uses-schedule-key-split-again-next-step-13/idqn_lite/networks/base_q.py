import jax
import jax.numpy as jnp


class BaseQ:
    def __init__(self, n_actions: int) -> None:
        self.n_actions = n_actions

    def random_action(self, key: jax.Array) -> jnp.int8:
        return jax.random.choice(key, jnp.arange(self.n_actions)).astype(jnp.int8)

    def best_action(self, key: jax.Array, q_params, state: jnp.ndarray) -> jnp.int8:
        # key is not used here
        return jnp.argmax(q_params @ state).astype(jnp.int8)
