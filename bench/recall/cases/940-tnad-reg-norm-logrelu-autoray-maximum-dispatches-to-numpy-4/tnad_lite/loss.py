from numbers import Number
from typing import Callable

from tnad_lite.autoray_lite import do


class MPS:
    """Stand-in for a quimb MatrixProductState: a vector of tensor entries."""

    def __init__(self, arrays):
        self.arrays = arrays

    def norm_squared(self):
        return do("sum", self.arrays * self.arrays)


def no_reg(x):
    return 0.0


def reg_norm_logrelu(P):
    """Regularization cost using ReLU of the log of the Frobenius-norm of `P`."""
    return do("maximum", 0.0, do("log", P.norm_squared()))


def reg_norm_quad(P):
    """Regularization cost using the quadratic formula centered in 1 of the Frobenius-norm of `P`."""
    return do("power", do("add", P.norm_squared(), -1.0), 2)


def error_quad(P, data):
    return do("power", do("add", do("sum", P.arrays * data), -1.0), 2)


def loss(model, data, error: Callable = error_quad, reg: Callable = no_reg) -> Number:
    return do("mean", error(model, data)) + reg(model)
