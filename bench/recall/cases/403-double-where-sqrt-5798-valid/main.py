import jax.numpy as jnp
from jax import grad


def f(x):
    condition = x < 1
    x_valid = jnp.where(condition, 1, x)
    return jnp.where(condition, x, jnp.sqrt(x_valid))


df = grad(f)

if __name__ == "__main__":
    print(df(1e-9))
    print("grad at 0:", df(0.0))
