import jax
import jax.numpy as jnp


def f(x):
    return jnp.where(x > 0, 0, x * jnp.inf)


def g(x):
    return jnp.where(x <= 0, 0, jnp.sqrt(x))


if __name__ == "__main__":
    print("grad f at 1:", jax.grad(f)(1.))
    print("grad g at 0:", jax.grad(g)(0.))
