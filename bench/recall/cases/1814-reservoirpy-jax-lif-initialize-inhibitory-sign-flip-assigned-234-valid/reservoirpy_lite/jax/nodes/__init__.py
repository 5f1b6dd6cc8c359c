from reservoirpy_lite.jax.nodes.lif import LIF

__all__ = ["LIF"]
