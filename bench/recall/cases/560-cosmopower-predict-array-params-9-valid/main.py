import jax
import jax.numpy as jnp

from cosmopower_lite import CosmoPowerJAX

emulator = CosmoPowerJAX(["omega_cdm", "omega_b", "logA", "h", "n_s"])


def like(theta, datavec, cinv):
    # parameters passed as an array (in the emulator's order), not as a dict
    model = emulator.predict(theta[None, :])[0]
    diff = datavec - model
    return -0.5 * diff @ cinv @ diff


if __name__ == "__main__":
    theta = jnp.array([0.12, 0.022, 3.0, 0.7, 0.96])
    datavec = jnp.ones(16)
    cinv = jnp.eye(16)
    g = jax.grad(like)(theta, datavec, cinv)
    print("grad finite:", bool(jnp.isfinite(g).all()))
