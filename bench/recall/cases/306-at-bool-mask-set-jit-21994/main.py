import jax
import jax.numpy as jnp


def f(x):
    return x.at[x < 5].set(0)


def g(x):
    return jnp.where(x < 5, 0, x)


if __name__ == "__main__":
    x = jnp.arange(10)
    assert jnp.array_equal(f(x), g(x))  # type: ignore

    print(jax.jit(g)(x))  # no error
    print(jax.jit(f)(x))  # error
