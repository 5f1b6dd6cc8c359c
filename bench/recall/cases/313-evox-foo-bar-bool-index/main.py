import jax
import jax.numpy as jnp


@jax.jit
def foo(x):
    return bar(x)


def bar(x):
    return x[x > 0]  # dynamic index, not jit-able


if __name__ == "__main__":
    print(foo(jnp.array([-1.0, 2.0, 3.0])))
