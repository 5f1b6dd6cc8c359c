import jax.numpy as jnp

from reservoirpy_lite.nodes import NVAR

if __name__ == "__main__":
    x = jnp.linspace(0.1, 1.0, 20).reshape(10, 2)
    nvar = NVAR(delay=2, order=2, strides=1)
    out = nvar.run(x)
    print("all zeros:", bool(jnp.all(out == 0.0)))
    print("store all zeros:", bool(jnp.all(nvar.state["store"] == 0.0)))
