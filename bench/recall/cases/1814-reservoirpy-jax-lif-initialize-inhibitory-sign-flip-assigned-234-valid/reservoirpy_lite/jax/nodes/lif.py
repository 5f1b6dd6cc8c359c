import jax
import jax.numpy as jnp


class LIF:
    """Leaky integrate-and-fire reservoir (jax backend), reduced to initialize."""

    def __init__(self, units, inhibitory=0.2, seed=0):
        self.units = units
        self.inhibitory = inhibitory
        self.seed = seed
        self.W = None

    def initialize(self, x):
        key = jax.random.PRNGKey(self.seed)
        self.W = jnp.abs(jax.random.normal(key, (self.units, self.units)))
        n_inhibitory = int(self.inhibitory * self.units)
        self.W = self.W.at[:, :n_inhibitory].multiply(-1)
        self.initialized = True
