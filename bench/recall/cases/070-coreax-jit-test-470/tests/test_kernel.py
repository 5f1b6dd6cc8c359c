import jax
import jax.numpy as jnp

from coreax.util import jit_test


def squared_distance(x, y):
    return jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)


def test_squared_distance_jit():
    x = jnp.ones((500, 50))
    pre, post = jit_test(jax.jit(squared_distance), (x, x))
    assert post < pre


if __name__ == "__main__":
    test_squared_distance_jit()
    print("timed without blocking")
