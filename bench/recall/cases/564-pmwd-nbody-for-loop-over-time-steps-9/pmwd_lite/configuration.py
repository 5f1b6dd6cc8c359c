from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Configuration:
    """Static configuration: mesh size and the N-body time steps (scale factors)."""

    mesh_size: int = 16
    a_start: float = 1 / 64
    a_stop: float = 1.0
    a_nbody_num: int = 63

    @property
    def a_nbody(self):
        return np.linspace(self.a_start, self.a_stop, num=1 + self.a_nbody_num)
