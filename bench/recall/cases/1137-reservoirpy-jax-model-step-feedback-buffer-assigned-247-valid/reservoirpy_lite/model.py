from functools import partial
from typing import Mapping, Optional

import jax
import jax.numpy as jnp
import numpy as np


class Model:
    def __init__(self, nodes, edges):
        # edges are (parent, delay, child); a delay > 0 is a feedback connection
        self.nodes = nodes
        self.edges = edges
        self.parents = {n: [p for p, d, c in edges if c is n and d == 0] for n in nodes}
        self.execution_order = nodes
        self.feedback_buffers = {(p, d, c): np.zeros((d, p.output_dim)) for p, d, c in self.edges if d > 0}
        self.node_states = {n: n.state for n in nodes}

    @partial(jax.jit, static_argnums=(0,))
    def _step(
        self,
        state,
        x,
    ):
        buffers, node_states = state

        new_state = {}

        for node in self.execution_order:
            inputs = []
            if node in x:
                inputs.append(x[node])
            inputs += [new_state[parent]["out"] for parent in self.parents[node]]
            inputs += [buffer[-1] for (_p, _d, c), buffer in buffers.items() if c == node]
            node_input = jnp.concatenate(inputs, axis=-1)
            new_state[node] = node._step(node_states[node], node_input)

        new_buffers = {edge: buffer.copy() for edge, buffer in buffers.items()}
        for (p, d, c), buffer in new_buffers.items():
            buffer = buffer.at[-1].set(new_state[p]["out"])
            new_buffers[(p, d, c)] = jnp.roll(buffer, 1, axis=0)

        return new_buffers, new_state

    def step(self, x):
        buffers, node_states = self._step((self.feedback_buffers, self.node_states), x)
        self.feedback_buffers, self.node_states = buffers, node_states
        return node_states
