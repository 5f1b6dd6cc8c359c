import flax
import jax
import jax.numpy as jnp


class GCBCAgent(flax.struct.PyTreeNode):
    """Goal-conditioned behavioral cloning (actor only, trimmed)."""

    mean: jnp.ndarray
    log_std: jnp.ndarray

    @jax.jit
    def sample_actions(self, observations, goals=None, seed=None, temperature=1.0):
        noise = jax.random.normal(seed, shape=self.mean.shape)
        actions = self.mean + temperature * jnp.exp(self.log_std) * noise
        return jnp.clip(actions, -1, 1)

    @classmethod
    def create(cls, action_dim):
        return cls(mean=jnp.zeros(action_dim), log_std=jnp.zeros(action_dim))
