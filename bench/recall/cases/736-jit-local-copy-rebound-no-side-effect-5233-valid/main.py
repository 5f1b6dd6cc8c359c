import jax.numpy as jnp
from jax import jit


@jit
def func(x):
    x_copy = x
    x_copy = x_copy ** 2
    # do things with x_copy
    return x_copy.sum()


if __name__ == "__main__":
    x = jnp.arange(3.0)
    print(func(x), func(x))
    print("x unchanged:", x.tolist() == [0.0, 1.0, 2.0])
