import jax.numpy as jnp

from ticktack_lite.ticktack import Box, CarbonBoxModel


def production(t):
    return 1.88 + 0.1 * jnp.sin(2 * jnp.pi * t / 11.0)


if __name__ == "__main__":
    nodes = [Box("Stratosphere", 60.0, 0.7), Box("Troposphere", 50.0, 0.3), Box("Surface", 900.0)]
    fluxes = [[0.0, 30.0, 0.0], [30.0, 0.0, 60.0], [0.0, 60.0, 0.0]]
    cbm = CarbonBoxModel(nodes, fluxes)
    try:
        states, solution = cbm.run(jnp.arange(0.0, 10.0), 4, production, target_C_14=707.0)
        print("troposphere at start:", float(states[0, 1]))
    except Exception as exc:
        print(type(exc).__name__, str(exc).splitlines()[0])
