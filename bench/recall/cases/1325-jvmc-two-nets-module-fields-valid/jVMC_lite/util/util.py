import jax.numpy as jnp
import numpy as np
import flax.linen as nn

import jVMC_lite
import jVMC_lite.global_defs
import jVMC_lite.vqs


class RBM(nn.Module):
    numHidden: int = 2

    @nn.compact
    def __call__(self, s):
        layer = nn.Dense(self.numHidden)
        return jnp.sum(jnp.log(jnp.cosh(layer(2 * s.ravel() - 1))))


def get_net(descr, dims):
    return RBM(**descr["parameters"])


def init_net(descr, dims, seed=0):

    if not "net2" in descr:

        model = get_net(descr["net1"], dims)

    else:

        model1 = get_net(descr["net1"], dims)
        model2 = get_net(descr["net2"], dims)
        model = jVMC_lite.nets.two_nets_wrapper.TwoNets(net1=model1, net2=model2)

    psi = jVMC_lite.vqs.NQS(model, batchSize=descr["batch_size"], seed=seed)

    psi(jnp.zeros((jVMC_lite.global_defs.device_count(), 1) + dims, dtype=np.int32))

    return psi
