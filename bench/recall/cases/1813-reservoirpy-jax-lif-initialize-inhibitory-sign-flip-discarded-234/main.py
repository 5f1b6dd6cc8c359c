import jax.numpy as jnp

from reservoirpy_lite.jax.nodes import LIF

if __name__ == "__main__":
    node = LIF(units=10, inhibitory=0.2)
    node.initialize(jnp.zeros((1, 3)))
    print("inhibitory columns negative:", bool((node.W[:, :2] < 0).all()))
