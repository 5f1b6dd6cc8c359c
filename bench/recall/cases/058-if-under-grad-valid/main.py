import jax
import jax.numpy as jnp


def problematic_function(x):
    if x[0] > 0:  # the page says this raises under grad: it does not
        return jnp.sum(x ** 2)
    else:
        return -jnp.sum(x ** 2)


if __name__ == "__main__":
    grad_fn = jax.grad(problematic_function)
    print(grad_fn(jnp.array([1.0, 2.0, 3.0])))
