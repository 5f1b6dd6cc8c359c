import jax.numpy as jnp
from jax.experimental import optimizers

opt_init, opt_update, get_params = optimizers.adam(1e-3)

if __name__ == "__main__":
    print(get_params(opt_init(jnp.zeros(3))))
