from functools import partial

import jax.numpy as jnp

import jaxrts_lite as jaxrts

instrument = partial(jaxrts.instrument_function.instrument_gaussian, sigma=5.0)


def make_setup():
    return jaxrts.Setup(
        145.0,
        8500.0,
        jnp.linspace(8400.0, 8600.0, 201),
        instrument,
    )


if __name__ == "__main__":
    state = jaxrts.PlasmaState(T_e=20.0)
    for _ in range(3):
        setup = make_setup()
        state.probe(setup).block_until_ready()
