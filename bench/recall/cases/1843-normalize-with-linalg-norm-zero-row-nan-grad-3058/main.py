import jax
import jax.numpy as jnp
from jax import grad

from qknorm.ops import normalize_nan


def loss(x):
    return jnp.mean(jnp.einsum(
            "...qd,...kd->...qk",
            normalize_nan(x, axis=-1),
            normalize_nan(x, axis=-1),
    ))


if __name__ == "__main__":
    x = jnp.array([[1.0, 2.0, 2.0], [0.0, 0.0, 0.0]])
    g = grad(loss)(x)
    print("grad:", g)
    print("nan in grad:", bool(jnp.isnan(g).any()))
