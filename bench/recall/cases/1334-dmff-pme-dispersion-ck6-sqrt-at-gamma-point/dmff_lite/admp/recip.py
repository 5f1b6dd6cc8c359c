import numpy as np
import jax.numpy as jnp
import jax.scipy as jsp
from jax import jit

sqrt_pi = np.sqrt(np.pi)


def generate_pme_recip(Ck_fn, kappa, gamma, K1, K2, K3):

    def pme_recip(box, S_k):

        def get_recip_vectors_int(N):
            """Integer k-points of the N[0] x N[1] x N[2] reciprocal mesh."""
            N_half = N.reshape(3)
            kx, ky, kz = [jnp.roll(jnp.arange(- (N_half[i] - 1) // 2, (N_half[i] + 1) // 2 ), - (N_half[i] - 1) // 2) for i in range(3)]
            kpts_int = jnp.hstack([ki.flatten()[:,jnp.newaxis] for ki in jnp.meshgrid(kz, kx, ky)])
            return kpts_int

        def setup_kpts(box, kpts_int):
            '''
            This function sets up the k-points used for reciprocal space calculations
            '''
            # in this array, a*, b*, c* (without 2*pi) are arranged in column
            box_inv = jnp.linalg.inv(box)
            # K * 3, coordinate in reciprocal space
            kpts = 2 * jnp.pi * kpts_int.dot(box_inv)
            ksq = jnp.sum(kpts**2, axis=1)
            # 4 * K
            kpts = jnp.hstack((kpts, ksq[:, jnp.newaxis])).T
            return kpts

        N = np.array([K1, K2, K3])
        kpts_int = get_recip_vectors_int(N)
        kpts = setup_kpts(box, kpts_int)
        V = jnp.linalg.det(box)
        # for electrostatic, need to exclude gamma point
        # for dispersion, need to include gamma point
        if not gamma:
            C_k = Ck_fn(kpts[3, 1:], kappa, V)
            E_k = C_k * jnp.abs(S_k[1:])**2
        else:
            C_k = Ck_fn(kpts[3, :], kappa, V)
            E_k = C_k * jnp.abs(S_k)**2
        return jnp.sum(E_k)

    return jit(pme_recip)


def Ck_1(ksq, kappa, V):
    return 2*jnp.pi/V/ksq * jnp.exp(-ksq/4/kappa**2)

def Ck_6(ksq, kappa, V):
    x2 = ksq / 4 / kappa**2
    x = jnp.sqrt(x2)
    x3 = x2 * x
    exp_x2 = jnp.exp(-x2)
    f = (1 - 2*x2)*exp_x2 + 2*x3*sqrt_pi*jsp.special.erfc(x)
    return sqrt_pi*jnp.pi/2/V*kappa**3 * f / 3
