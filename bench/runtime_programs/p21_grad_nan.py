import jax
import jax.numpy as jnp


def safe_sqrt(x):
    return jnp.where(x > 0, jnp.sqrt(x), 0.0)


if __name__ == "__main__":
    print(jax.grad(lambda v: safe_sqrt(v).sum())(jnp.array([0.0, 1.0, 4.0])))
