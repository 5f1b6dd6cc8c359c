from jax.scipy.special import ndtri as jnd
from scipy.special import ndtri as snd
import jax.numpy as jnp
import numpy as np

if __name__ == "__main__":
    res1 = jnd(jnp.asarray(0.9999999))
    res2 = snd(np.asarray(0.9999999))
    print(res1)
    print(res2)
    print("allclose:", jnp.allclose(res1, res2, rtol=1e-5, atol=1e-8))
