import jax
import jax.numpy as jnp
from jax import jit


def approx_df(
    x: jax.Array, f: jax.Array, method: str = "cubic", axis: int = -1, **kwargs
):
    """Approximates first derivatives using cubic spline interpolation."""
    # noqa: D202

    # close over static args to deal with non-jittable kwargs
    def fun(x, f):
        return _approx_df(x, f, method, axis, **kwargs)

    return jit(fun)(x, f)


def _approx_df(x, f, method, axis, c=0, bc_type="not-a-knot"):
    if method == "cubic":
        out = _cubic1(x, f, axis)
    elif method in ("nearest", "linear"):
        out = jnp.zeros_like(f)
    else:
        raise ValueError(f"got unknown method {method}")
    return out


def _cubic1(x, f, axis):
    dx = jnp.diff(x)
    df = jnp.diff(f, axis=axis)
    dxi = jnp.where(dx == 0, 0, 1 / dx)
    if df.ndim > dxi.ndim:
        dxi = jnp.expand_dims(dxi, tuple(range(1, df.ndim)))
        dxi = jnp.moveaxis(dxi, 0, axis)
    df = dxi * df
    fx = jnp.concatenate(
        [
            jnp.take(df, jnp.array([0]), axis, mode="wrap"),
            1
            / 2
            * (
                jnp.take(df, jnp.arange(0, df.shape[axis] - 1), axis, mode="wrap")
                + jnp.take(df, jnp.arange(1, df.shape[axis]), axis, mode="wrap")
            ),
            jnp.take(df, jnp.array([-1]), axis, mode="wrap"),
        ],
        axis=axis,
    )
    return fx
