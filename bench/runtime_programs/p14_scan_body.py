import jax.numpy as jnp
from jax import lax


def count_positive(xs):
    def body(c, x):
        c = c + 1 if x > 0 else c
        return c, x
    return lax.scan(body, 0.0, xs)


if __name__ == "__main__":
    print(count_positive(jnp.array([1.0, -2.0, 3.0])))
