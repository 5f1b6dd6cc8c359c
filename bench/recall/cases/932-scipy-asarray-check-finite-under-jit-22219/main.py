import jax
import jax.numpy as xp
from scipy._lib._array_api import _asarray

a = xp.asarray([0])

def f(a):
    return _asarray(a, check_finite=True)

if __name__ == "__main__":
    jax.jit(f)(a)
