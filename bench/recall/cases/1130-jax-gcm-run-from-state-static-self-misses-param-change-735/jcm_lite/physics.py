import dataclasses

import jax.numpy as jnp


@dataclasses.dataclass
class VerticalDiffusionParameters:
    trvdi: jnp.ndarray = dataclasses.field(default_factory=lambda: jnp.array(24.0))


class Parameter:
    """A mutable holder for a term's parameters (set_value changes it in place)."""

    def __init__(self, value):
        self._value = value

    def get_value(self):
        return self._value

    def set_value(self, value):
        self._value = value


class SpeedyVerticalDiffusion:
    name = "speedy_vertical_diffusion"

    def __init__(self):
        self.params = Parameter(VerticalDiffusionParameters())

    def tendency(self, temperature):
        trvdi = self.params.get_value().trvdi
        # relax the column towards its mean with timescale trvdi (hours)
        return (jnp.mean(temperature) - temperature) / trvdi


class Physics:
    def __init__(self, terms):
        self.terms = terms


def speedy_physics():
    return Physics([SpeedyVerticalDiffusion()])
