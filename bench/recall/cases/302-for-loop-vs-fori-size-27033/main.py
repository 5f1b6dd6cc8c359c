from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("size",))
def f_for_loop(x: float, size: int) -> jax.Array:
    out = x + jnp.zeros(size)
    for i in range(size):
        out = out + i * jnp.arange(size)
    return out


@partial(jax.jit, static_argnames=("size",))
def f_comprehension(x, size):
    out = x + jnp.zeros(size)
    return out + sum([i * jnp.arange(size) for i in range(size)])


if __name__ == "__main__":
    size = 300
    n_loop = len(jax.make_jaxpr(f_for_loop.__wrapped__, static_argnums=1)(1.0, size).eqns)
    n_comp = len(jax.make_jaxpr(f_comprehension.__wrapped__, static_argnums=1)(1.0, size).eqns)
    print(f_for_loop(1, size)[:3], f_comprehension(1, size)[:3])
    print("unrolled:", n_loop >= size and n_comp >= size, n_loop, n_comp)
