import jax
import jax.numpy as jnp
import numpy as np

import jVMC_lite.global_defs as global_defs

from functools import partial
import time
communicationTime = 0.


def _cov_helper(data, p):
    return jnp.expand_dims(
        jnp.matmul(jnp.conj(jnp.transpose(data)), jnp.multiply(p[:, None], data)),
        axis=0
    )


_sum_up_pmapd = None
_sum_sq_pmapd = None
mean_helper = None
cov_helper = None

mpiPmapDevices = None
def jit_my_stuff():
    # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
    # at all times.

    global _sum_up_pmapd
    global _sum_sq_pmapd
    global mean_helper
    global cov_helper
    global mpiPmapDevices

    if global_defs.pmap_devices_updated(mpiPmapDevices):
        _sum_up_pmapd = global_defs.pmap_for_my_devices(lambda x: jax.lax.psum(jnp.sum(x, axis=0), 'i'), axis_name='i')
        _sum_sq_pmapd = global_defs.pmap_for_my_devices(lambda data, mean, p: jnp.einsum('ij, ij, i -> j', jnp.conj(data - mean[None, ...]), (data - mean[None, ...]), p), in_axes=(0, None, 0))
        mean_helper = global_defs.pmap_for_my_devices(lambda data, p: jnp.expand_dims(jnp.dot(p, data), axis=0), in_axes=(0, 0))
        cov_helper = global_defs.pmap_for_my_devices(_cov_helper, in_axes=(0, 0))

        mpiPmapDevices = global_defs.myPmapDevices


def global_sum(data):
    """ Computes the sum of input data across MPI processes and device/batch dimensions.
    """

    jit_my_stuff()

    data.block_until_ready()
    t0 = time.perf_counter()

    # Compute sum locally
    localSum = np.array(_sum_up_pmapd(data)[0])

    global communicationTime
    communicationTime += time.perf_counter() - t0

    return jnp.array(localSum)
