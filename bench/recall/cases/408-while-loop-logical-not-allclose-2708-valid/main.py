from jax import numpy as jnp
from jax.lax import while_loop


def bf(x):
    return x + 1.0


def cf_ac(x):
    return jnp.logical_not(jnp.allclose(x, 10.0))


if __name__ == "__main__":
    print("result:", while_loop(cf_ac, bf, 0.0))
