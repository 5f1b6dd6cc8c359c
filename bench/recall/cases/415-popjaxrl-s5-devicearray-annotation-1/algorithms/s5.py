from functools import partial

import jax
import jax.numpy as np
from flax import linen as nn


def make_DPLR_HiPPO(N):
    """Diagonal part of the HiPPO-LegS matrix (the real parts only, trimmed)."""
    Lambda = -0.5 * np.ones(N)
    return Lambda


class S5SSM(nn.Module):
    Lambda_re_init: np.DeviceArray
    H: int
    P: int

    def setup(self):
        self.Lambda_re = self.param("Lambda_re", lambda rng, shape: self.Lambda_re_init, (None,))
        self.B = self.param("B", nn.initializers.lecun_normal(), (self.P, self.H))

    def __call__(self, input_sequence):
        Bu = jax.vmap(lambda u: self.B @ u)(input_sequence)
        return jax.vmap(lambda x: self.Lambda_re * x)(Bu)


def init_S5SSM(H, P, Lambda_re_init):
    return partial(S5SSM, Lambda_re_init=Lambda_re_init, H=H, P=P)
