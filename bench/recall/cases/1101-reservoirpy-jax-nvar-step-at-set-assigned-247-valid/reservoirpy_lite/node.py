from abc import ABC, abstractmethod
from typing import Optional, Union

import jax
import jax.numpy as jnp


class Node(ABC):
    """Generic Jax Node ABC

    All Jax Nodes should inherit this class.
    """

    #: True if the Node has been initialized
    initialized: bool = False
    #: Expected dimension of the Node input. Can be None before initialization
    input_dim: int = None
    #: Expected dimension of the Node input. Can be None before initialization
    output_dim: int = None
    #: Optional name of the Node.
    name: Optional[str] = None

    @abstractmethod
    def initialize(self, x, y=None):
        ...  # pragma: no cover

    @abstractmethod
    def _step(self, state, x):
        ...  # pragma: no cover

    def step(self, x=None):
        if x is None:
            x = jnp.empty((0,))

        if not self.initialized:
            self.initialize(x)

        new_state = self._step(self.state, x)

        self.state = new_state
        return new_state["out"]

    def _run(self, state, x):
        def split(func):
            def step_func(state, x):
                out = func(state, x)
                return out, out["out"]

            return step_func

        new_state, output = jax.lax.scan(split(self._step), state, x)

        return new_state, output

    def run(self, x=None, iters=None, workers=1):
        if not self.initialized:
            self.initialize(x)
        final_state, result = self._run(self.state, x)
        self.state = final_state
        return result

    def _set_input_dim(self, x):
        self.input_dim = x.shape[-1]
