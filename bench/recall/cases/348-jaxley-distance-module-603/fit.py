import jax
import jax.numpy as jnp

from geometry import distance


@jax.jit
def mytest(param):
    return distance(param)


if __name__ == "__main__":
    print(mytest(jnp.ones((1,))))
