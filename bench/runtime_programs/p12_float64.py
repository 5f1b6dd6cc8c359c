import jax
import jax.numpy as jnp


@jax.jit
def precise_sum(x):
    return jnp.sum(x.astype(jnp.float64))


if __name__ == "__main__":
    print(precise_sum(jnp.arange(5.0)))
