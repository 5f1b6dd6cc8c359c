from typing import Callable

import equinox as eqx


class NeuronLayer(eqx.Module):
    lagrangian: Callable
    shape: tuple
    tau: float = 1.0
