import jax
import jax.numpy as jnp


@jax.jit
def scale(x, nullable_value, default_value):
    z = nullable_value or default_value
    return x * z


if __name__ == "__main__":
    scale(jnp.ones(3), jnp.float32(2.0), 1.0)
