from typing import List, Optional

from jax import numpy as jn


class Momentum:
    """Momentum optimizer."""

    def __init__(self, params: List[jn.ndarray], momentum: float = 0.9, nesterov: bool = False):
        """Constructor for momentum optimizer class.

        Args:
            params: the variables to optimize (objax: a VarCollection).
            momentum: the momentum hyperparameter.
            nesterov: bool indicating whether to use the Nesterov method.
        """
        self.momentum = momentum
        self.nesterov = nesterov
        self.m = [jn.zeros_like(x) for x in params]

    def __call__(self, lr: float, params: List[jn.ndarray], grads: List[jn.ndarray], m: List[jn.ndarray],
                 momentum: Optional[float] = None):
        """Updates variables and other state based on momentum (or Nesterov) SGD.

        Args:
           lr: the learning rate.
           grads: the gradients to apply.
           momentum: optional, override the default momentum.
        """
        assert len(grads) == len(params), 'Expecting as many gradients as trainable variables'
        momentum = momentum or self.momentum
        new_p, new_m = [], []
        if self.nesterov:
            for g, p, mv in zip(grads, params, m):
                mv = g + momentum * mv
                new_m.append(mv)
                new_p.append(p - lr * (g + momentum * mv))
        else:
            for g, p, mv in zip(grads, params, m):
                mv = g + momentum * mv
                new_m.append(mv)
                new_p.append(p - lr * mv)
        return new_p, new_m
