import jax
import jax.numpy as jnp


# BAD: new jit object every call -> always recompiles
def hot_call(x):
    f = jax.jit(lambda y: jnp.sum(y ** 2))
    return f(x)


if __name__ == "__main__":
    for _ in range(3):
        hot_call(jnp.array([3.0, 4.0]))
