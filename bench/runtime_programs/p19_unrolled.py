import jax
import jax.numpy as jnp


@jax.jit
def relax(x):
    for _ in range(100):
        x = 0.9 * x + 0.1
    return x


if __name__ == "__main__":
    print(relax(jnp.arange(8.0)))
