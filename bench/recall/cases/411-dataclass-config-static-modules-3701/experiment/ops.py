import functools

import jax


@functools.partial(jax.jit, static_argnums=1)
def do_stuff(data, config):
    # do some stuff
    return data * config.some_value
