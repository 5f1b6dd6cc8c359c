import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp

from s2fft_lite.utils import quadrature_jax


def traced_ops(fn, *args):
    jaxpr = jax.make_jaxpr(fn)(*args)
    return len(jaxpr.eqns[0].params["jaxpr"].eqns)


if __name__ == "__main__":
    print(quadrature_jax.quad_weights_mw(8)[:3])
    n8 = traced_ops(lambda: quadrature_jax.quad_weights_mw_theta_only(8))
    n64 = traced_ops(lambda: quadrature_jax.quad_weights_mw_theta_only(64))
    theta = jnp.linspace(0.1, 3.0, 16)
    d8 = traced_ops(lambda t: quadrature_jax.quad_weight_dh_theta_only(t, 8), theta)
    d64 = traced_ops(lambda t: quadrature_jax.quad_weight_dh_theta_only(t, 64), theta)
    print("mw ops for L=8 / L=64:", n8, n64)
    print("dh ops for L=8 / L=64:", d8, d64)
    print("unrolled with L:", n64 >= 4 * n8 and d64 >= 4 * d8)
