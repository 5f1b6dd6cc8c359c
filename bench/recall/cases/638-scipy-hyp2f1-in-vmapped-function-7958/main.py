import jax
import jax.numpy as jnp
from scipy.special import hyp2f1


def beta_cdf_like(a, b, x):
    # a batched function involving the Gauss hypergeometric function
    return x ** a / a * hyp2f1(a, 1 - b, a + 1, x)


if __name__ == "__main__":
    a = jnp.array([0.5, 1.0, 2.0])
    b = jnp.array([2.0, 2.0, 3.0])
    x = jnp.array([0.1, 0.5, 0.9])
    print(beta_cdf_like(0.5, 2.0, 0.1))  # fine on Python floats
    print(jax.vmap(beta_cdf_like)(a, b, x))
