import jax

from functools import partial

myPmapDevices = jax.devices()  # [myDevice]
myDeviceCount = len(myPmapDevices)
pmap_for_my_devices = partial(jax.pmap, devices=myPmapDevices)


def device_count():
    return myDeviceCount
