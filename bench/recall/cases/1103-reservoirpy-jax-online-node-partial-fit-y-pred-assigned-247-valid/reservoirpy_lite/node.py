from abc import ABC, abstractmethod
from typing import Optional

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

    @abstractmethod
    def initialize(self, x, y=None):
        ...  # pragma: no cover

    def _set_input_dim(self, x):
        self.input_dim = x.shape[-1]

    def _set_output_dim(self, y):
        self.output_dim = y.shape[-1]


class OnlineNode(Node, ABC):
    """Node that can be trained in an online fashion.

    :py:class:`reservoirpy.node.OnlineNode` implements the stateful method
    :py:meth:`~.OnlineNode.partial_fit` and :py:meth:`~.OnlineNode._learning_step`.

    """

    @abstractmethod
    def _learning_step(self, x, y):
        ...  # pragma: no cover

    def partial_fit(self, x, y):
        """Fit the Node in an online fashion.

        This method both trains the Node parameters and produce predictions on
        the run. Calling :py:meth:`partial_fit` updates the Node without
        resetting the parameters, unlike :py:meth:`fit`.
        """
        if not self.initialized:
            self.initialize(x, y)

        n_timesteps = x.shape[-2]
        y_pred = jnp.empty((n_timesteps, self.output_dim))
        if y is not None:
            for i, (x_, y_) in enumerate(zip(x, y)):
                y_pred_ = self._learning_step(x_, y_)
                # TODO: find a better way if necessary
                y_pred = y_pred.at[i].set(y_pred_)
        else:
            for i, x_ in enumerate(x):
                y_pred_ = self._learning_step(x_, None)
                y_pred = y_pred.at[i].set(y_pred_)

        self.state = {"out": y_pred_}
        return y_pred
