import jax
import jax.numpy as jnp


def spectral_ratio(m):
    # the spectral norm (largest singular value) of a matrix
    s = jnp.linalg.matrix_norm(m, ord=2)
    return jnp.where(s == 0.0, 1.0, s)


g = jax.grad(lambda m: spectral_ratio(m))(jnp.zeros((3, 3)))
print(g)
assert not jnp.isnan(g).any()
