import jax.numpy as jnp
from jax import jit


@jit
def f(
    a, idx, b
):
    a.at[idx].set(b)


if __name__ == "__main__":
    a = jnp.ones((3, 3))
    idx = ((1, 1, 2, 2), (1, 2, 1, 2),)
    out = f(a, idx, -1) or a
    print(out)
    print("updated:", bool((out == -1).any()))
