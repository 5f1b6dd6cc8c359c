from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("size",))
def f_lax_fori(x, size):

    def body(ind, carry_on):
        return carry_on + ind * jnp.arange(size)

    return jax.lax.fori_loop(0, size, body, x + jnp.zeros(size))


if __name__ == "__main__":
    size = 300
    n = len(jax.make_jaxpr(f_lax_fori.__wrapped__, static_argnums=1)(1.0, size).eqns)
    print(f_lax_fori(1, size)[:3])
    print("unrolled:", n >= size, n)
