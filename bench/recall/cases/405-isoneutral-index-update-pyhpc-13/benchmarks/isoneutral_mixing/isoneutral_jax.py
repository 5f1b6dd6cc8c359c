import jax
import jax.numpy as np


@jax.jit
def isoneutral_diffusion_pre(maskW, dzw, salt, temp, K_11):
    """
    Isopycnal diffusion for tracer
    following functional formulation by Griffies et al
    Code adopted from MOM2.1
    """
    tau = 0

    dTdz = np.zeros_like(K_11)
    dSdz = np.zeros_like(K_11)

    """
    gradients at top face of T cells
    """
    dTdz = jax.ops.index_update(
        dTdz, jax.ops.index[:, :, :-1], maskW[:, :, :-1] * \
        (temp[:, :, 1:, tau] - temp[:, :, :-1, tau]) / \
        dzw[np.newaxis, np.newaxis, :-1]
    )
    dSdz = jax.ops.index_update(
        dSdz, jax.ops.index[:, :, :-1], maskW[:, :, :-1] * \
        (salt[:, :, 1:, tau] - salt[:, :, :-1, tau]) / \
        dzw[np.newaxis, np.newaxis, :-1]
    )
    return dTdz, dSdz


def run(*inputs, gpu=False):
    outputs = isoneutral_diffusion_pre(*inputs)
    for o in outputs:
        o.block_until_ready()
    return [np.array(o) for o in outputs]
