import jax.numpy as jnp

from tinygp_lite import GaussianProcess
from tinygp_lite.kernels.quasisep import Matern32

if __name__ == "__main__":
    kernel = Matern32(scale=jnp.asarray(1.5), sigma=jnp.asarray(1.0))
    X = jnp.linspace(0.0, 10.0, 20)
    gp = GaussianProcess(kernel, X, diag=0.1)
    try:
        cov = gp.condition(jnp.linspace(0.0, 10.0, 5))
        print("conditioned:", cov.shape)
    except Exception as exc:
        print(type(exc).__name__, str(exc).splitlines()[0])
