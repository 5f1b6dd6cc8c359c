import jax
import jax.numpy as jnp


@jax.jit
def take_count(x, n):
    k = int(n)
    return x[:k].sum()


if __name__ == "__main__":
    print(take_count(jnp.ones(10), jnp.int32(3)))
