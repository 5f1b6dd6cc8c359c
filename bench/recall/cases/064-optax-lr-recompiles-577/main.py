import jax
import jax.numpy as jnp
import optax


def main(lr):
    tx = optax.adam(learning_rate=lr)
    model = jnp.ones(8)
    opt_state = tx.init(model)
    return jax.jit(tx.update)(model, opt_state, model)


if __name__ == "__main__":
    for lr in (1e-3, 3e-4, 1e-4):
        main(lr)
