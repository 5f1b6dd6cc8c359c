from jax import jit
import jax.numpy as jnp


@jit
def f(idx, mylist):
    return mylist[idx]


if __name__ == "__main__":
    mylist = [jnp.ones(3), 2 * jnp.ones(3), 3 * jnp.ones(3)]
    print(f(1, mylist))
