"""Optimize constraints using Levenberg-Marquardt."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Literal

import jax
import jaxls_lite as jaxls
from jax import numpy as jnp


@partial(jax.jit, static_argnames=("verbose",))
def _optimize_vmapped(
    body_rotmats: jax.Array,
    guidance_params: JaxGuidanceParams,
    verbose: bool,
) -> tuple[jax.Array, jax.Array]:
    return jax.vmap(
        partial(
            _optimize,
            guidance_params=guidance_params,
            verbose=verbose,
        )
    )(body_rotmats)


# Modes for guidance.
GuidanceMode = Literal[
    # Foot skating only.
    "no_hands",
]


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class JaxGuidanceParams:
    prior_quat_weight: float = 1.0
    skate_weight: float = 30.0

    hand_quats: bool = dataclasses.field(default=True, metadata=dict(static=True))

    # Optimization parameters.
    lambda_initial: float = 0.1
    max_iters: int = dataclasses.field(default=20, metadata=dict(static=True))

    @staticmethod
    def defaults(
        mode: GuidanceMode,
        phase: Literal["inner", "post"],
    ) -> JaxGuidanceParams:
        if mode == "no_hands":
            return {
                "inner": JaxGuidanceParams(
                    hand_quats=False,
                    max_iters=5,
                ),
                "post": JaxGuidanceParams(
                    hand_quats=False,
                    max_iters=20,
                ),
            }[phase]
        raise ValueError(mode)


def _optimize(
    body_rotmats: jax.Array,
    guidance_params: JaxGuidanceParams,
    verbose: bool,
) -> tuple[jax.Array, jax.Array]:
    def residual_fn(x):
        return jnp.concatenate(
            [
                guidance_params.prior_quat_weight * (x - body_rotmats),
                guidance_params.skate_weight * jnp.diff(x),
            ]
        )

    solution, costs = jaxls.solve(
        residual_fn,
        body_rotmats,
        trust_region=jaxls.TrustRegionConfig(
            lambda_initial=guidance_params.lambda_initial
        ),
        termination=jaxls.TerminationConfig(max_iterations=guidance_params.max_iters),
    )
    return solution, costs
