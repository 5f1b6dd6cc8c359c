"""Example for solving pose graph optimization problems (the .g2o file reader,
tyro CLI and the plot are removed: a synthetic chain of poses)."""

import jax
import jax.numpy as jnp

import jaxls_lite as jaxls


def main(linear_solver: str = "conjugate_gradient") -> None:
    # Making graph.
    with jaxls.utils.stopwatch("Making graph"):
        graph = jaxls.FactorGraph.make(odometry=jnp.full((199,), 0.5))
        jax.block_until_ready(graph.odometry)

    with jaxls.utils.stopwatch("Making solver"):
        initial_vals = jnp.zeros(200)

    with jaxls.utils.stopwatch("Running solve"):
        solution_vals = graph.solve(
            initial_vals, trust_region=None, linear_solver=linear_solver
        )

    with jaxls.utils.stopwatch("Running solve (again)"):
        solution_vals = graph.solve(
            initial_vals, trust_region=None, linear_solver=linear_solver
        )

    print("last pose:", round(float(solution_vals[-1]), 3))


if __name__ == "__main__":
    main()
