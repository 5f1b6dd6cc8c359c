import jax
from jax import lax
from jax import numpy as jnp


@jax.jit
def f1(flat):
    curried = lambda z: z**2
    x = jax.jacfwd(curried)(flat)
    return x


@jax.jit
def f2(flat):
    curried = lambda z: z**2
    x = lax.cond(jnp.iscomplex(flat)[0],
             jax.jacfwd(curried, holomorphic=True),
             jax.jacfwd(curried), flat)
    return x


if __name__ == "__main__":
    print("f1:", f1(jnp.zeros(1)))
    try:
        print("f2:", f2(jnp.zeros(1)))
    except TypeError as e:
        print(f"TypeError: {str(e).splitlines()[0]}")
