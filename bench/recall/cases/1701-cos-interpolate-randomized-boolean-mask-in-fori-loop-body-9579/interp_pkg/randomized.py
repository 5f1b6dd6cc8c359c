import jax
import jax.numpy as jnp

from interp_pkg.bijection import biject_alpha


def cosInterpolateRandomized(x, xp, fp, consume):
    i = jnp.clip(jnp.searchsorted(xp, x, side='right'), 1, len(xp) - 1)
    dx = xp[i] - xp[i - 1]
    alpha = (x - xp[i - 1])/dx
    alpha, _, _ = jax.lax.fori_loop(0, len(xp)-1, biject_alpha, (alpha, i, consume))

    def cos_interpolate(x1, x2, a):
        return x1 + (x2 - x1) * (1 - jnp.cos(jnp.pi * a)) / 2

    return cos_interpolate(fp[i - 1], fp[i], alpha)
