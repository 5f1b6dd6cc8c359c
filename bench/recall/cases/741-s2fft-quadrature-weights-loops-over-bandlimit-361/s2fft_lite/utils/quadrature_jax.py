from functools import partial as _partial

import jax
import jax.numpy as jnp
from jax import jit as _jit


@_partial(_jit, static_argnums=(1))
def quad_weight_dh_theta_only(theta: float, L: int) -> float:
    r"""
    Compute DH quadrature weight for :math:`\theta` integration (only), for given
    :math:`\theta`. JAX implementation of :func:`s2fft.quadrature.quad_weights_dh_theta_only`.
    """
    w = 0.0
    for k in range(0, L):
        w += jnp.sin((2 * k + 1) * theta) / (2 * k + 1)
    w *= 2 / L * jnp.sin(theta)
    return w


@_partial(_jit, static_argnums=(0))
def quad_weights_mw(L: int) -> jnp.ndarray:
    r"""
    Compute MW quadrature weights for :math:`\theta` and :math:`\phi` integration.
    JAX implementation of :func:`s2fft.quadrature.quad_weights_mw`.
    """
    return quad_weights_mw_theta_only(L) * 2 * jnp.pi / (2 * L - 1)


@_partial(_jit, static_argnums=(0))
def quad_weights_mw_theta_only(L: int) -> jnp.ndarray:
    r"""
    Compute MW quadrature weights for :math:`\theta` integration (only).
    JAX implementation of :func:`s2fft.quadrature.quad_weights_mw_theta_only`.
    """
    w = jnp.zeros(2 * L - 1, dtype=jnp.complex128)
    for i in range(-(L - 1), L):
        w = w.at[i + L - 1].set(mw_weights(i))

    w *= jnp.exp(-1j * jnp.arange(-(L - 1), L) * jnp.pi / (2 * L - 1))
    wr = jnp.real(jnp.fft.fft(jnp.fft.ifftshift(w), norm="backward")) / (2 * L - 1)
    q = wr[:L]
    q = q.at[: L - 1].add(wr[-1 : L - 1 : -1])

    return q


@_partial(_jit, static_argnums=(0))
def mw_weights(m: int) -> float:
    r"""
    Compute MW weights given as a function of index m.
    """
    if m == 1:
        return 1j * jnp.pi / 2

    elif m == -1:
        return -1j * jnp.pi / 2

    elif m % 2 == 0:
        return 2 / (1 - m**2)

    else:
        return 0
