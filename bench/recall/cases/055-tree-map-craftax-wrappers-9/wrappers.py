import jax
import jax.numpy as jnp


class AutoResetEnvWrapper:
    def step(self, done, state_re, state_st):
        state = jax.tree_map(
            lambda x, y: jax.lax.select(done, x, y), state_re, state_st
        )
        return state


if __name__ == "__main__":
    AutoResetEnvWrapper().step(jnp.array(False), {"t": jnp.zeros(())}, {"t": jnp.ones(())})
