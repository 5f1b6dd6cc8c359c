import jax.numpy as jnp
from jax.experimental.optimizers import adam

if __name__ == "__main__":
    opt_init, opt_update, get_params = adam(1e-2)
    opt_state = opt_init({"w": jnp.zeros(3)})
