from jax import jit
import jax.numpy as jnp


def where_max(a):
    # jnp.where(a == jnp.max(a)) where `a` has a unique maximum
    return jnp.unravel_index(jnp.argmax(a.flatten()), a.shape)


if __name__ == "__main__":
    a = jnp.array([[0.0, 3.0, 1.0], [2.0, 0.5, 0.0]])
    print(where_max(a))
    print("jit:", [int(i) for i in jit(where_max)(a)])
