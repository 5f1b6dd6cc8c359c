import jax.numpy as jnp
import numpy as np

from scipy_lite._lib._util import _lazywhere


if __name__ == "__main__":
    x = np.array([-1.0, 0.5, 2.0])
    print(_lazywhere(x > 0, (x,), np.log, f2=lambda x: x))
    xj = jnp.array([-1.0, 0.5, 2.0])
    print("jax:", _lazywhere(xj > 0, (xj,), jnp.log, f2=lambda x: x).tolist())
