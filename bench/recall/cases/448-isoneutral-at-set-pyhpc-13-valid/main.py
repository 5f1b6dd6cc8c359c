import jax
import jax.numpy as np
import numpy as onp


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
    dTdz = dTdz.at[:, :, :-1].set(
        maskW[:, :, :-1] * (temp[:, :, 1:, tau] - temp[:, :, :-1, tau])
        / dzw[np.newaxis, np.newaxis, :-1]
    )
    dSdz = dSdz.at[:, :, :-1].set(
        maskW[:, :, :-1] * (salt[:, :, 1:, tau] - salt[:, :, :-1, tau])
        / dzw[np.newaxis, np.newaxis, :-1]
    )
    return dTdz, dSdz


if __name__ == "__main__":
    shape = (4, 4, 3)
    out = isoneutral_diffusion_pre(onp.ones(shape), onp.ones(shape[2]), onp.random.rand(*shape, 3),
                                   onp.random.rand(*shape, 3), onp.zeros(shape))
    print("dTdz shape:", out[0].shape)
