from typing import List, Optional

import jax.numpy as jn


class Momentum:
    """Momentum optimizer (objax's, its Var collections replaced by explicit lists)."""

    def __init__(self, params: List, momentum: float = 0.9, nesterov: bool = False):
        self.momentum = momentum
        self.nesterov = nesterov
        self.m = [jn.zeros_like(x) for x in params]

    def __call__(self, lr: float, params: List, grads: List, m: List, momentum: Optional[float] = None):
        """Updates variables and other state based on momentum (or Nesterov) SGD.

        Args:
            lr: the learning rate.
            grads: the gradients to apply.
            momentum: optional, if provided overrides the default momentum.
        """
        assert len(grads) == len(params), 'Expecting as many gradients as trainable variables'
        momentum = momentum or self.momentum
        new_params, new_m = [], []
        for g, p, mv in zip(grads, params, m):
            mv = g + momentum * mv
            if self.nesterov:
                p = p - lr * (g + momentum * mv)
            else:
                p = p - lr * mv
            new_params.append(p)
            new_m.append(mv)
        return new_params, new_m
