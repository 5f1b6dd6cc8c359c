from jax import numpy as np

from mcx_lite.inference.warmup.num_steps_adaptation import is_u_turn


def leapfrog(grad_logpdf, inverse_mass_matrix):
    def step(position, momentum, step_size):
        momentum = momentum + 0.5 * step_size * grad_logpdf(position)
        position = position + step_size * np.multiply(inverse_mass_matrix, momentum)
        momentum = momentum + 0.5 * step_size * grad_logpdf(position)
        return position, momentum

    return step


def steps_before_u_turn(step, initial_position, initial_momentum, inverse_mass_matrix, step_size, max_steps):
    position, momentum = initial_position, initial_momentum
    for n in range(1, max_steps + 1):
        position, momentum = step(position, momentum, step_size)
        if is_u_turn(initial_position, position, inverse_mass_matrix, momentum).any():
            return n
    return max_steps
