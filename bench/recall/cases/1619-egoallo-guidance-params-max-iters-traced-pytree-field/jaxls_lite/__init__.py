"""Stand-in for jaxls's Levenberg-Marquardt solve (the parts egoallo calls)."""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class TrustRegionConfig:
    lambda_initial: float = 5e-4


@dataclasses.dataclass(frozen=True)
class TerminationConfig:
    max_iterations: int = 100


def solve(residual_fn, x0, trust_region: TrustRegionConfig, termination: TerminationConfig):
    # Cost history, one entry per iteration (as jaxls keeps it).
    costs = jnp.zeros(termination.max_iterations)

    def step(i, carry):
        x, costs = carry
        r, jac = residual_fn(x), jax.jacfwd(residual_fn)(x)
        lhs = jac.T @ jac + trust_region.lambda_initial * jnp.eye(x.shape[0])
        x = x - jnp.linalg.solve(lhs, jac.T @ r)
        return x, costs.at[i].set(jnp.sum(r**2))

    return jax.lax.fori_loop(0, termination.max_iterations, step, (x0, costs))
