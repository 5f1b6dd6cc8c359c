import jax
import jax.numpy as jnp

from .s5 import init_S5SSM, make_DPLR_HiPPO


def make_train(config):
    Lambda, _, _, V, _ = make_DPLR_HiPPO(config["S5_P"])
    ssm_init_fn = init_S5SSM(H=config["S5_D_MODEL"], P=config["S5_P"],
                             Lambda_re_init=Lambda.real, Lambda_im_init=Lambda.imag,
                             V=V, Vinv=V.conj().T, dt_min=0.001, dt_max=0.1)

    def train(rng):
        network = ssm_init_fn()
        obs = jnp.ones((8, config["S5_D_MODEL"]))
        params = network.init(rng, obs)
        return network.apply(params, obs)

    return train
