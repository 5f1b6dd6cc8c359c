import jax
from jax import numpy as np

from mcx_lite.inference.integrators import leapfrog, steps_before_u_turn

if __name__ == "__main__":
    grad_logpdf = jax.grad(lambda x: -0.5 * np.sum(x ** 2))
    inverse_mass_matrix = np.ones(2)
    step = leapfrog(grad_logpdf, inverse_mass_matrix)
    try:
        n = steps_before_u_turn(step, np.array([1.0, 0.5]), np.array([0.3, -0.2]),
                                inverse_mass_matrix, 0.1, 100)
        print("steps before u-turn:", n)
    except ValueError as exc:
        print("ValueError", str(exc).splitlines()[0])
