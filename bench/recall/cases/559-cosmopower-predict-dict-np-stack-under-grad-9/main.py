import jax
import jax.numpy as jnp

from cosmopower_lite import CosmoPowerJAX

emulator = CosmoPowerJAX(["omega_cdm", "omega_b", "logA", "h", "n_s"])


def like(theta, datavec, cinv):
    omega_cdm, omega_b, logA, h, n_s = theta
    params = {
        "omega_cdm": jnp.atleast_1d(omega_cdm),
        "omega_b": jnp.atleast_1d(omega_b),
        "logA": jnp.atleast_1d(logA),
        "h": jnp.atleast_1d(h),
        "n_s": jnp.atleast_1d(n_s),
    }
    model = emulator.predict(params)[0]
    diff = datavec - model
    return -0.5 * diff @ cinv @ diff


if __name__ == "__main__":
    theta = jnp.array([0.12, 0.022, 3.0, 0.7, 0.96])
    datavec = jnp.ones(16)
    cinv = jnp.eye(16)
    print(jax.grad(like)(theta, datavec, cinv))
