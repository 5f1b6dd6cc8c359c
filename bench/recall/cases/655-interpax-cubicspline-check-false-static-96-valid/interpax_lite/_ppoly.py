import jax.numpy as jnp


def errorif(cond, err=ValueError, msg=""):
    """Raise an error if condition is met (not jittable)."""
    if cond:
        raise err(msg)


def prepare_input(x, y, axis, dydx=None, check=True):
    """Prepare input for cubic spline interpolators."""
    x = jnp.asarray(x)
    y = jnp.asarray(y)
    if check:
        errorif(
            not jnp.all(jnp.isfinite(x)),
            ValueError,
            "`x` must contain only finite values.",
        )
        errorif(jnp.any(jnp.diff(x) <= 0), ValueError, "`x` must be strictly increasing.")
    return x, y, axis


class CubicSpline:
    def __init__(self, x, y, axis=0, check=True):
        x, y, axis = prepare_input(x, y, axis, check=check)
        h = jnp.diff(x)
        self.x = x
        self.c = jnp.diff(y) / h
