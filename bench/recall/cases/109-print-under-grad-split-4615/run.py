import jax
import jax.numpy as jnp

from energy import JU

if __name__ == "__main__":
    jax.jit(jax.grad(JU))(jnp.arange(6.0))
