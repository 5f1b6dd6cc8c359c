import jax.numpy as jnp

from tinygp.gp import GaussianProcess
from tinygp.kernels.quasisep import Matern32

if __name__ == "__main__":
    X = jnp.linspace(0.0, 10.0, 100)
    gp = GaussianProcess(Matern32(scale=1.5), X)
    X_test = jnp.linspace(0.0, 10.0, 46)
    gp.condition(jnp.sin(X), X_test)
