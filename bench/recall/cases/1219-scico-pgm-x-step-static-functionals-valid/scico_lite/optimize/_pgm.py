"""Proximal Gradient Method classes."""

from functools import partial
from typing import Optional

import jax
import jax.numpy as snp

from scico_lite.functional import Functional


class PGM:
    r"""Proximal Gradient Method (PGM) base class.

    Minimize a function of the form :math:`f(\mb{x}) + g(\mb{x})`, where
    :math:`f` and the :math:`g` are instances of :class:`.Functional`.

    The step size :math:`\alpha` is the reciprocal of :math:`L`, an
    estimate of the Lipschitz constant of :math:`f`.
    """

    def __init__(
        self,
        f: Functional,
        g: Functional,
        L0: float,
        x0,
        maxiter: int = 100,
    ):
        r"""

        Args:
            f: Loss or Functional object with `grad` defined.
            g: Instance of Functional with defined prox method.
            L0: Initial estimate of Lipschitz constant of f.
            x0: Starting point for :math:`\mb{x}`.
            maxiter: Maximum number of iterations.
        """

        #: Functional or Loss to minimize; must have grad method defined.
        self.f: Functional = f

        if g.has_prox is not True:
            raise ValueError(f"The functional g ({type(g)}) must have a prox method.")

        #: Functional to minimize; must have prox defined
        self.g: Functional = g

        self.L: float = L0  # reciprocal of step size (estimate of Lipschitz constant of f)
        self.x = x0  # current estimate of solution
        self.maxiter = maxiter

    def x_step(self, v, L: float):
        """Compute update for variable `x`."""
        return PGM._x_step(self.f, self.g, v, L)

    @staticmethod
    @partial(jax.jit, static_argnums=(0, 1))
    def _x_step(f, g, v, L: float):
        """Jit-able static method for computing update for variable `x`."""
        return g.prox(v - 1.0 / L * f.grad(v), 1.0 / L)

    def objective(self, x=None) -> float:
        r"""Evaluate the objective function :math:`f(\mb{x}) + g(\mb{x})`."""
        if x is None:
            x = self.x
        return self.f(x) + self.g(x)

    def step(self):
        """Take a single PGM step."""
        self.x = self.x_step(self.x, self.L)

    def solve(self):
        """Initialize and run the PGM algorithm."""
        for _ in range(self.maxiter):
            self.step()
        return self.x
