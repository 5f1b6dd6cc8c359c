import jax.numpy as jnp


class Node:
    """A linear readout node: out = W @ input (stand-in for reservoirpy's jax nodes)."""

    def __init__(self, W, name=None):
        self.W = jnp.asarray(W)
        self.output_dim = self.W.shape[0]
        self.name = name
        self.state = {"out": jnp.zeros((self.output_dim,))}

    def _step(self, state, x):
        return {"out": self.W @ x}

    # nodes are dictionary keys of the states passed through jit: pytrees sort them
    def __lt__(self, other):
        return self.name < other.name

    def __gt__(self, other):
        return self.name > other.name
