import numpy as np

# Complex floating point
tCpx = np.complex128
# Real floating point
tReal = np.float64

import jax

from functools import partial
import collections

myDevice = jax.devices()[0]

myPmapDevices = jax.devices()  # [myDevice]
myDeviceCount = len(myPmapDevices)
pmap_for_my_devices = partial(jax.pmap, devices=myPmapDevices)

def pmap_devices_updated(pmapDevices):
    if collections.Counter(pmapDevices) == collections.Counter(myPmapDevices):
        return False
    return True
