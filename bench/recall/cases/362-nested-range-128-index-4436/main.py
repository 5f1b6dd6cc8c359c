import jax
import jax.numpy as jnp
from jax import jit


@jit
def foo(a):
    for i in range(128):
        for j in range(128):
            s = a[0]
    return 0


a = jnp.zeros(128)

if __name__ == "__main__":
    n = len(jax.make_jaxpr(foo.__wrapped__)(a).eqns)
    print("unrolled:", n >= 128 * 128, n)
