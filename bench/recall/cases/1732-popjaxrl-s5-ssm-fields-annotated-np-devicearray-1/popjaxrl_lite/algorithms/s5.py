from functools import partial
import jax
import jax.numpy as np
from flax import linen as nn


def make_DPLR_HiPPO(N):
    """Diagonal stand-in: the eigenvalues of a stable diagonal matrix"""
    Lambda = -0.5 * np.ones(N) + 1j * np.pi * np.arange(N)
    V = np.eye(N, dtype=np.complex64)
    return Lambda, None, None, V, None


class S5SSM(nn.Module):
    Lambda_re_init: np.DeviceArray
    Lambda_im_init: np.DeviceArray
    V: np.DeviceArray
    Vinv: np.DeviceArray

    H: int
    P: int
    dt_min: float
    dt_max: float
    conj_sym: bool = True
    clip_eigs: bool = False

    def setup(self):
        self.Lambda_re = self.param("Lambda_re", lambda rng, shape: self.Lambda_re_init, (None,))
        self.Lambda_im = self.param("Lambda_im", lambda rng, shape: self.Lambda_im_init, (None,))
        self.Lambda = self.Lambda_re + 1j * self.Lambda_im
        self.B = self.param("B", nn.initializers.lecun_normal(), (self.P, self.H))
        self.C = self.param("C", nn.initializers.lecun_normal(), (self.H, self.P))

    def __call__(self, input_sequence):
        Lambda_bar = np.exp(self.Lambda * self.dt_min)

        def step(x, u):
            x = Lambda_bar * x + self.B @ u
            return x, (self.C @ x).real

        _, ys = jax.lax.scan(step, np.zeros(self.P, np.complex64), input_sequence)
        return ys


def init_S5SSM(H, P, Lambda_re_init, Lambda_im_init, V, Vinv, dt_min, dt_max):
    return partial(S5SSM, H=H, P=P, Lambda_re_init=Lambda_re_init,
                   Lambda_im_init=Lambda_im_init, V=V, Vinv=Vinv,
                   dt_min=dt_min, dt_max=dt_max)
