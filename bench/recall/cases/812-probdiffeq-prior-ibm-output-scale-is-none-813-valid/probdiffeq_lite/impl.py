"""A stand-in for probdiffeq.impl: a dense state-space model of one ODE dimension."""

from typing import NamedTuple

import jax.numpy as jnp


class _Prototypes(NamedTuple):
    def output_scale(self):
        return jnp.ones(())


class _Conditional(NamedTuple):
    num_derivatives: int

    def ibm_transitions(self, *, output_scale):
        def discretize(dt):
            n = self.num_derivatives + 1
            A = jnp.eye(n) + dt * jnp.eye(n, k=1)
            Q = output_scale**2 * dt * jnp.eye(n)
            return A, Q

        return discretize


class _SSM(NamedTuple):
    prototypes: _Prototypes
    conditional: _Conditional


def choose(ssm_fact, *, tcoeffs_like):
    del ssm_fact
    return _SSM(_Prototypes(), _Conditional(len(tcoeffs_like) - 1))
