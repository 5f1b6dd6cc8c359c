import jax
import jax.numpy as jnp

from jax_galsim_lite.moffat import Moffat
from jax_galsim_lite.position import PositionD


def kvalue_at_center(beta):
    return Moffat(beta, 1.5)._kValue(PositionD(jnp.array([0.0, 0.5]), jnp.array([0.0, 0.0]))).sum()


if __name__ == "__main__":
    beta = jnp.array(3.0)
    print("kValue:", float(kvalue_at_center(beta)))
    g = jax.grad(kvalue_at_center)(beta)
    print("d kValue / d beta is nan:", bool(jnp.isnan(g)))
