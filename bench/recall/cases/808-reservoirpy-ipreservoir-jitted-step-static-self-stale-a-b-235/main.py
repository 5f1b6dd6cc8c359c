import jax
import jax.numpy as jnp
import numpy as np

from reservoirpy_lite.jax.nodes import IPReservoir

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(10, 3)), dtype=jnp.float32)
    W = jnp.asarray(rng.normal(size=(5, 5)) * 0.3, dtype=jnp.float32)
    Win = jnp.asarray(rng.normal(size=(5, 3)), dtype=jnp.float32)
    node = IPReservoir(W=W, Win=Win)
    node.initialize(x)

    state = node.state
    before = node._step(state, x[0])["out"]
    node.a = node.a * 3.0  # what intrinsic plasticity's fit does, step after step
    after = node._step(state, x[0])["out"]
    print("step ignores the new a:", bool(jnp.allclose(before, after)))
