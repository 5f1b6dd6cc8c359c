import jax.numpy as jnp
import numpy as np


class CosmoPowerJAX:
    """Emulator of a power spectrum: a small dense network over the cosmological parameters."""

    def __init__(self, parameters, n_modes=16, seed=0):
        self.parameters = list(parameters)
        rng = np.random.default_rng(seed)
        self.W = jnp.asarray(rng.normal(size=(len(self.parameters), n_modes)) * 0.1)
        self.b = jnp.zeros(n_modes)

    def _dict_to_ordered_arr_np(self, input_dict):
        """Sort input parameters (a dict of arrays) into the emulator's order."""
        return np.stack([input_dict[k] for k in self.parameters], axis=1)

    def predict(self, input_params):
        if isinstance(input_params, dict):
            input_params = self._dict_to_ordered_arr_np(input_params)
        return jnp.exp(jnp.tanh(input_params @ self.W + self.b))
