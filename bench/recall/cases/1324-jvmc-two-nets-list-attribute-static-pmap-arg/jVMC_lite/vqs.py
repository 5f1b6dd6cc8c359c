import jax
import jax.numpy as jnp

import jVMC_lite.global_defs as global_defs


def create_batches(configs, b):
    append = b * ((configs.shape[0] + b - 1) // b) - configs.shape[0]
    pads = [(0, append), ] + [(0, 0)] * (len(configs.shape) - 1)
    return jnp.pad(configs, pads).reshape((-1, b) + configs.shape[1:])


class NQS:
    """Wrapper class providing basic functionality of variational states."""

    def __init__(self, net, batchSize=1000, seed=1234):
        self.initialized = False
        self.seed = seed
        self.parameters = None
        self.net = net

        self.batchSize = batchSize

        # Need to keep handles of jit'd functions to avoid recompilation
        self._eval_net_pmapd = global_defs.pmap_for_my_devices(self._eval, in_axes=(None, None, 0, None), static_broadcasted_argnums=(0, 3))

    # **  end def __init__

    def init_net(self, s):

        if not self.initialized:

            self.parameters = self.net.init(jax.random.PRNGKey(self.seed), s[0, 0, ...])
            self.initialized = True

    def __call__(self, s):
        """Evaluate variational wave function."""

        self.init_net(s)

        return self._eval_net_pmapd(self.net, self.parameters, s, self.batchSize)

    def _eval(self, net, params, s, batchSize):

        sb = create_batches(s, batchSize)

        def scan_fun(c, x):
            return c, jax.vmap(lambda y: net.apply(params, y), in_axes=(0,))(x)

        res = jax.lax.scan(scan_fun, None, jnp.array(sb))[1].reshape((-1,))

        return res[:s.shape[0]]
