import jax.numpy as jnp


def normalize_nan(x: jnp.ndarray, axis: int, eps: float = 1e-12) -> jnp.ndarray:
    norm = jnp.linalg.norm(x, axis=axis, keepdims=True)
    # return norm will raise nan errors too
    return x / norm
