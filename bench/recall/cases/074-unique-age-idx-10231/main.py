import jax
import jax.numpy as jnp


def stuff_model(age_idx, beta):
    ages_pred = jnp.unique(age_idx)
    return beta[ages_pred].sum()


if __name__ == "__main__":
    jax.jit(stuff_model)(jnp.array([24, 25, 26, 6, 14, 10]), jnp.ones(40))
