import jax.numpy as jnp


def normalize(x: jnp.ndarray, axis: int, eps: float = 1e-12) -> jnp.ndarray:
    norm = jnp.sum(x * x, axis=axis, keepdims=True)
    # if the norm is close to zero
    # normalization should not be applied
    # the gradient should be the same as identify map
    norm = jnp.where(
        norm < eps,
        1.0,
        norm,
    )
    norm = jnp.sqrt(norm)
    return x / norm
