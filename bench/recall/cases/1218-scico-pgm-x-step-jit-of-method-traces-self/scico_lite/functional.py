"""Functional and loss classes (reduced from scico.functional and scico.loss)."""

import jax
import jax.numpy as snp


class Functional:
    has_eval = True
    has_prox = False

    def __call__(self, x):
        raise NotImplementedError

    def grad(self, x):
        return jax.grad(self.__call__)(x)


class L1Norm(Functional):
    r"""The :math:`\ell_1` norm, with the soft-thresholding prox."""

    has_prox = True

    def __call__(self, x):
        return snp.sum(snp.abs(x))

    def prox(self, v, lam=1.0, **kwargs):
        return snp.sign(v) * snp.maximum(snp.abs(v) - lam, 0.0)


class SquaredL2Loss(Functional):
    r"""Weighted squared :math:`\ell_2` loss :math:`\alpha \norm{\mb{y} - \mb{x}}_2^2`."""

    def __init__(self, y, scale=0.5):
        self.y = y
        self.scale = scale

    def __call__(self, x):
        return self.scale * snp.sum((self.y - x) ** 2)
