import jax
import jax.numpy as jnp
import numpy as np

from ops import inplace_func_jax

inplace_func_jit = jax.jit(inplace_func_jax)

x = np.arange(100, dtype=np.int32)
x_jax = jnp.array(x.copy())

if __name__ == "__main__":
    print(inplace_func_jit(x_jax).sum())
    eqns = jax.make_jaxpr(inplace_func_jax)(x_jax).jaxpr.eqns
    print("unrolled:", len(eqns) >= x.size)
