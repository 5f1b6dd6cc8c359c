import jax.numpy as np
from jax.experimental import optimizers


def make_momentum(step_size):
    opt_init, opt_update, get_params = optimizers.momentum(step_size, mass=0.9)
    return opt_init, opt_update, get_params
