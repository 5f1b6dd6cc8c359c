import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(34982345)


@jax.jit
def get_random_value(a):
    return a * rng.random()


def test_get_random_value():
    a = jnp.asarray(1.)
    x = get_random_value(a)
    y = get_random_value(a)
    assert not np.allclose(x, y)


if __name__ == "__main__":
    try:
        test_get_random_value()
        print("same variates: False")
    except AssertionError:
        print("same variates: True")
