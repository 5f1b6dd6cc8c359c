import jax
import jax.numpy as jnp


def f(x, idx):
    return jax.lax.dynamic_slice(x, [idx], [2])


x = jnp.array([1, 2, 3])
idx = jnp.array(2)

if __name__ == "__main__":
    print(jax.jit(f)(x, idx))
