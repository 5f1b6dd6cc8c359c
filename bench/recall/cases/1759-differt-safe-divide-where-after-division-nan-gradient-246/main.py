import jax
import jax.numpy as jnp

from differt_lite.utils import safe_divide

if __name__ == "__main__":
    x = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0])
    y = jnp.array([0.0, 1.0, 2.0, 0.0, 2.0])
    print("value:", safe_divide(x, y))
    g = jax.grad(lambda x: safe_divide(x, y).sum())(x)
    print("grad:", g)
    print("nan in grad:", bool(jnp.isnan(g).any()))
