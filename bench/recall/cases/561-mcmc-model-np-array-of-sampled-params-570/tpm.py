import jax.numpy as jnp


def Tpm(ran, array):
    """Mean response over time ``ran`` for each row (pos, eff, sig, mean_time) of array."""
    pos, eff, sig, mean_time = array[:, 0], array[:, 1], array[:, 2], array[:, 3]
    t = ran[None, :]
    pulse = eff[:, None] * jnp.exp(-0.5 * ((t - pos[:, None]) / sig[:, None]) ** 2)
    return jnp.sum(pulse * jnp.exp(-t / mean_time[:, None]), axis=0)
