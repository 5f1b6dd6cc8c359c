import jax
import jax.numpy as jnp

from ferminet_lite.utils import multi_host

if __name__ == "__main__":
    print("devices:", jax.local_device_count())
    params = {"w": jnp.ones((3, 3)), "b": jnp.zeros(3)}
    # leaves mapped over the local devices, as after replication in ferminet's train loop
    replicated = jax.tree_util.tree_map(lambda x: jnp.stack([x] * jax.local_device_count()), params)
    print("synced:", multi_host.check_synced(replicated, "params"))
