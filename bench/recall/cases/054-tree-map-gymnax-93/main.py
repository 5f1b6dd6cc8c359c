import jax
import jax.numpy as jnp


def reset_where_done(done, state_re, state_st):
    return jax.tree_map(lambda x, y: jax.lax.select(done, x, y), state_re, state_st)


if __name__ == "__main__":
    reset_where_done(jnp.array(True), {"pos": jnp.zeros(2)}, {"pos": jnp.ones(2)})
