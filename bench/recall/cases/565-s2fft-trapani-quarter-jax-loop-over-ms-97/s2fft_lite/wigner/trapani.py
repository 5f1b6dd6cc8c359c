from functools import partial

import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnums=(1,))
def compute_quarter_jax(dl: jnp.ndarray, L: int, el: int) -> jnp.ndarray:
    r"""Compute Wigner-d at argument :math:`\pi/2` for quarter of plane using
    Trapani & Navaza recursion (JAX implementation).

    Warning:
        Writes garbage outside of `m`,`mm` range for given `el`.
    """

    dmm = jnp.zeros(L)

    # Equation (9) of T&N (2006).
    dmm = dmm.at[0].set(
        -jnp.sqrt((2 * el - 1) / (2 * el)) * dl[el - 1 + (L - 1), 0 + (L - 1)]
    )

    # Equation (10) of T&N (2006).
    mm = jnp.arange(1, L)
    dmm = dmm.at[mm].set(
        jnp.sqrt(el / 2 * (2 * el - 1) / (el + mm) / (el + mm - 1))
        * dl[el - 1 + (L - 1), mm - 1 + (L - 1)]
    )

    # Initialise dl for next el.
    mm = jnp.arange(L)
    dl = dl.at[el + (L - 1), mm + (L - 1)].set(dmm[mm])

    # Equation (11) of T&N (2006).
    # m = el-1 case (t2 = 0).
    m = el - 1
    dl = dl.at[m + (L - 1), mm + (L - 1)].set(
        2 * mm / jnp.sqrt((el - m) * (el + m + 1)) * dl[m + 1 + (L - 1), mm + (L - 1)]
    )

    # Equation (11) of T&N (2006).
    # Remaining m cases.
    # ms = jnp.arange(el - 2, -1, -1)
    ms = jnp.arange((L - 1) - 2, -1, -1) - (L - 1) + el
    ms_clip = jnp.where(ms < 0, 0, ms)
    t1_fact = jnp.sqrt((el - ms_clip) * (el + ms_clip + 1))
    t2_fact = jnp.sqrt(
        (el - ms_clip - 1) * (el + ms_clip + 2) / (el - ms_clip) / (el + ms_clip + 1)
    )
    for i, m in enumerate(ms):  # compute quarter plane since vectorizes
        t1 = 2 * mm / t1_fact[i] * dl[m + 1 + (L - 1), mm + (L - 1)]
        t2 = t2_fact[i] * dl[m + 2 + (L - 1), mm + (L - 1)]
        dl = dl.at[m + (L - 1), mm + (L - 1)].set(t1 - t2)

    return dl
