import jax
import jax.numpy as jnp

from tnad_lite import loss as tnad_loss


def objective(arrays, data, reg):
    return tnad_loss.loss(tnad_loss.MPS(arrays), data, reg=reg)


if __name__ == "__main__":
    arrays = jnp.linspace(0.5, 1.5, 6)
    data = jnp.ones(6)
    print(jax.grad(objective)(arrays, data, tnad_loss.reg_norm_quad))
    print(jax.grad(objective)(arrays, data, tnad_loss.reg_norm_logrelu))
