import equinox as eqx
import jax.numpy as jnp


class MyModule(eqx.Module):
    x: jnp.ndarray
    y: jnp.ndarray
