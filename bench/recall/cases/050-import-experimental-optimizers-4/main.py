import jax
import jax.experimental.optimizers

if __name__ == "__main__":
    opt_init, opt_update, get_params = jax.experimental.optimizers.sgd(0.1)
