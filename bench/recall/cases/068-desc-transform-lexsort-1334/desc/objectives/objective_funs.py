import functools

import jax


class ObjectiveFunction:
    def __init__(self, transform):
        self.transform = transform

    @functools.partial(jax.jit, static_argnums=(0,))
    def compute_scaled_error(self, modes):
        return self.transform._check_inputs_fft(modes).sum()
