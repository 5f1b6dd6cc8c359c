import jax


def step(_params):
    return _params


jit_step = jax.jit(step)
