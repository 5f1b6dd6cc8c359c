import jax
import jax.numpy as jnp

from .s5 import init_S5SSM, make_DPLR_HiPPO


def make_train(config):
    Lambda = make_DPLR_HiPPO(config["P"])
    ssm = init_S5SSM(config["H"], config["P"], Lambda)()

    def train(rng):
        x = jnp.ones((config["T"], config["H"]))
        params = ssm.init(rng, x)
        return ssm.apply(params, x)

    return train
