"""
Module for representation of model coefficients.
"""

from typing import Callable, Optional, Union

import numpy as np

try:
    import jax.numpy as jnp
    import jax
except ImportError:
    pass


class Signal:
    r"""General signal class.

    Represents a function of the form:

    .. math::
        Re[f(t)e^{i (2 \pi \nu t + \phi)}]
    """

    def __init__(
        self,
        envelope: Union[Callable, complex, float, int, jnp.ndarray],
        carrier_freq: Union[float, jnp.ndarray] = 0.0,
        phase: Union[float, jnp.ndarray] = 0.0,
        name: Optional[str] = None,
    ):
        self._name = name
        self._is_constant = False

        if isinstance(envelope, (complex, float, int)):
            envelope = jnp.asarray(complex(envelope))

        if isinstance(envelope, jnp.ndarray):
            # if envelope is constant and the carrier is zero, this is a constant signal
            if not isinstance(carrier_freq, jax.core.Tracer) and carrier_freq == 0.0:
                self._is_constant = True

            self._envelope = lambda t: envelope * jnp.ones_like(jnp.asarray(t))
        elif callable(envelope):
            self._envelope = envelope

        # set carrier and phase
        self.carrier_freq = carrier_freq
        self.phase = phase

    @property
    def is_constant(self) -> bool:
        """Whether or not the signal is constant."""
        return self._is_constant

    @property
    def carrier_freq(self) -> jnp.ndarray:
        """The carrier frequency of the signal."""
        return self._carrier_freq

    @carrier_freq.setter
    def carrier_freq(self, carrier_freq):
        self._carrier_freq = jnp.asarray(carrier_freq)
        self._carrier_arg = 1j * 2 * np.pi * self._carrier_freq

    @property
    def phase(self) -> jnp.ndarray:
        """The phase of the signal."""
        return self._phase

    @phase.setter
    def phase(self, phase):
        self._phase = jnp.asarray(phase)
        self._phase_arg = 1j * self._phase

    def envelope(self, t):
        """Vectorized evaluation of the envelope at time t."""
        return self._envelope(t)

    def complex_value(self, t):
        """Vectorized evaluation of the complex value at time t."""
        arg = self._carrier_arg * t + self._phase_arg
        return self.envelope(t) * jnp.exp(arg)

    def __call__(self, t):
        """Vectorized evaluation of the signal at time(s) t."""
        return jnp.real(self.complex_value(t))
