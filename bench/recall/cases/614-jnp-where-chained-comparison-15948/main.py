import jax
import jax.numpy as jnp
import numpy as np


def a(wavelength):

    np.where(500 < wavelength, 0, 2)
    print('OK')
    np.where(500 < wavelength <= 600, 0, 2)
    print('OK')


def aa(wavelength):

    jnp.where(500 < wavelength, 0, 2)
    print('OK')
    jnp.where(500 < wavelength <= 600, 0, 2)
    print('OK')


if __name__ == "__main__":
    a(900)
    aa(900)
    jax.jit(aa)(900)
