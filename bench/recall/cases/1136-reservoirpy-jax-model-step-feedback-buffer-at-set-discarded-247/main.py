import jax.numpy as jnp

from reservoirpy_lite.model import Model
from reservoirpy_lite.node import Node

if __name__ == "__main__":
    # reservoir <- input and the readout's previous output (feedback, delay 1); readout <- reservoir
    reservoir = Node(jnp.array([[0.5, 1.0]]), name="reservoir")
    readout = Node(jnp.array([[2.0]]), name="readout")
    model = Model([reservoir, readout], [(reservoir, 0, readout), (readout, 1, reservoir)])
    for t in range(4):
        states = model.step({reservoir: jnp.array([1.0])})
    fed_back = model.feedback_buffers[(readout, 1, reservoir)]
    print("feedback buffer all zeros:", bool(jnp.all(fed_back == 0.0)))
    print("reservoir out:", float(states[reservoir]["out"][0]))
