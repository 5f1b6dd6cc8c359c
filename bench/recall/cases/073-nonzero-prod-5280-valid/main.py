import jax
import jax.numpy as jnp


def f(a):
    return jnp.where(a != 0, a, 1).prod()


if __name__ == "__main__":
    print(jax.jit(f)(jnp.array([0, 1, 2, 3])))
