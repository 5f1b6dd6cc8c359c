from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def _np_norm(x):
    return np.sqrt(np.sum(np.asarray(x) ** 2))


def _jnp_norm(x):
    return jnp.sqrt(jnp.sum(x ** 2))


_IMPL = {"numpy": _np_norm, "jax": _jnp_norm}


def norm(x, backend="numpy"):
    return _IMPL[backend](x)


@partial(jax.jit, static_argnames="backend")
def jit_norm(x, backend="jax"):
    return _IMPL[backend](x)


print(norm(np.ones(3)), jit_norm(jnp.ones(3)))
