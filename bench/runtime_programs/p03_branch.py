import jax
import jax.numpy as jnp


@jax.jit
def relu_or_neg(x):
    if x.sum() > 0:
        return jnp.maximum(x, 0.0)
    return -x


if __name__ == "__main__":
    print(relu_or_neg(jnp.arange(-3.0, 5.0)))
