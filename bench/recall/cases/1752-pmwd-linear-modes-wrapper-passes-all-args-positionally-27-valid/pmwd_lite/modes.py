from functools import partial

import jax.numpy as jnp
from jax import jit, checkpoint, random, custom_vjp

from pmwd_lite.cosmology import linear_power


def white_noise(seed, conf, real=False):
    """White noise Fourier or real modes."""
    key = random.PRNGKey(seed)
    modes = random.normal(key, shape=conf.ptcl_grid_shape, dtype=conf.float_dtype)
    if real:
        return modes
    return jnp.fft.rfftn(modes, norm='ortho')


@custom_vjp
def _safe_sqrt(x):
    return jnp.sqrt(x)

def _safe_sqrt_fwd(x):
    y = _safe_sqrt(x)
    return y, y

def _safe_sqrt_bwd(y, y_cot):
    x_cot = jnp.where(y != 0, 0.5 / y * y_cot, 0)
    return (x_cot,)

_safe_sqrt.defvjp(_safe_sqrt_fwd, _safe_sqrt_bwd)


@partial(jit, static_argnums=4)
@partial(checkpoint, static_argnums=4)
def _linear_modes(modes, cosmo, conf, a, real):
    kvec = jnp.meshgrid(
        *[2 * jnp.pi * jnp.fft.fftfreq(n, d=conf.ptcl_spacing) for n in conf.ptcl_grid_shape[:-1]],
        2 * jnp.pi * jnp.fft.rfftfreq(conf.ptcl_grid_shape[-1], d=conf.ptcl_spacing),
        indexing='ij')
    k = jnp.sqrt(sum(k**2 for k in kvec))

    if a is not None:
        a = jnp.asarray(a, dtype=conf.float_dtype)

    Plin = linear_power(k, a, cosmo, conf)

    if jnp.isrealobj(modes):
        modes = jnp.fft.rfftn(modes, norm='ortho')

    modes *= _safe_sqrt(Plin * conf.box_vol)

    if real:
        modes = jnp.fft.irfftn(modes, s=conf.ptcl_grid_shape, norm='ortho')

    return modes


def linear_modes(modes, cosmo, conf, a=None, real=False):
    """Linear matter overdensity Fourier or real modes."""
    return _linear_modes(modes, cosmo, conf, a, real)
