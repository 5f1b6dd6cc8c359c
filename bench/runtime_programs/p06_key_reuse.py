import jax
import jax.numpy as jnp


def perturb(key, x):
    a = jax.random.normal(key, x.shape)
    b = jax.random.normal(key, x.shape)
    return x + a - b


if __name__ == "__main__":
    print(perturb(jax.random.key(0), jnp.zeros(4)))
