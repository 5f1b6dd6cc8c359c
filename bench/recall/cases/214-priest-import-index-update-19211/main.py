import numpy as np
import jax.numpy as jnp
from functools import partial
from jax import jit, random
import jax
from jax.ops import index_update, index


@partial(jit, static_argnums=(2,))
def compute_boundary_vec(initial_state, x_fin, num_batch):
    x_init, vx_init, ax_init = initial_state

    x_init_vec = x_init*jnp.ones((num_batch, 1))
    vx_init_vec = vx_init*jnp.ones((num_batch, 1))
    ax_init_vec = ax_init*jnp.ones((num_batch, 1))
    x_fin_vec = x_fin*jnp.ones((num_batch, 1))

    b_eq_x = jnp.hstack(( x_init_vec, vx_init_vec, ax_init_vec, x_fin_vec   ))
    return b_eq_x


if __name__ == "__main__":
    print(compute_boundary_vec((0.0, 1.0, 0.0), 2.0, 3))
