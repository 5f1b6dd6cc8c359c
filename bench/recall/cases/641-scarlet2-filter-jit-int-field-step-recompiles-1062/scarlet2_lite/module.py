import equinox as eqx
import jax.numpy as jnp


class MyModule(eqx.Module):
    x: int
    y: jnp.ndarray
