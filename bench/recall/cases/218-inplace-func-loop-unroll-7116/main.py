import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def inplace_func_jax(a):
    for i in range(a.size):
        a = a.at[i].set(2 * (2 * (a[i] + 1) + 1))
    return a


x = np.arange(100, dtype=np.int32)
x_jax = jnp.array(x.copy())

if __name__ == "__main__":
    eqns = jax.make_jaxpr(inplace_func_jax.__wrapped__)(x_jax).jaxpr.eqns
    print("unrolled:", len(eqns) >= x.size)
