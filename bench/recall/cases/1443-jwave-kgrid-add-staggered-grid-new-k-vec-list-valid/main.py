import jax
import jax.numpy as jnp

from jwave_lite.geometry import kGrid, Staggered
from jwave_lite.spectral import derivative

if __name__ == "__main__":
    grid = kGrid.make_grid(N=(16, 16), dx=(0.1, 0.1))
    p0 = jnp.sin(2 * jnp.pi * grid.space_axis[0])[:, None] * jnp.ones((16, 16))

    @jax.jit
    def forward(p):
        return derivative(p, grid, axis=0, staggered=Staggered.FORWARD)

    print("jitted:", float(forward(p0).sum()))
    try:
        print("eager:", float(derivative(p0, grid, axis=0, staggered=Staggered.BACKWARD).sum()))
    except Exception as e:  # jax.errors.UnexpectedTracerError
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:80]}")
