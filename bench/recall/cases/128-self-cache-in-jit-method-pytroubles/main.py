from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def host_bootstrap():
    print("This code runs once at the beginning of the program.")
    return jnp.array([1.0, 2.0, 3.0])


class Box:

    @partial(jax.jit, static_argnums=0)
    def apply_jit(self, arr):
        print("This code runs once during the first trace.")
        out = arr * 2
        self.cache = out
        return out


if __name__ == "__main__":
    payload = host_bootstrap()
    box = Box()
    out1 = box.apply_jit(payload)  # tracing happens here
    np.array(out1)
    np.array(box.cache)
