import jax
import jax.numpy as jnp

from ._fd_derivs import approx_df


class Interpolator1D:
    """Convenience class for representing a 1D interpolated function."""

    def __init__(self, x: jax.Array, f: jax.Array, method: str = "cubic", **kwargs):
        x, f = map(jnp.asarray, (x, f))
        axis = kwargs.get("axis", 0)
        fx = kwargs.pop("fx", None)

        self.x = x
        self.f = f
        self.axis = axis
        self.method = method

        if fx is None:
            fx = approx_df(x, f, method, axis, **kwargs)

        self.derivs = {"fx": fx}
