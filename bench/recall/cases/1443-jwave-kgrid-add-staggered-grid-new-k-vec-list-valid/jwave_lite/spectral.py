import jax.numpy as jnp

from jwave_lite.geometry import Staggered


def derivative(field, grid, axis=0, staggered=Staggered.NONE):
    """First derivative of a real field along one axis, by FFT."""
    grid = grid.add_staggered_grid()
    k = grid.k_vec[staggered][axis]
    shape = [1] * field.ndim
    shape[axis] = -1
    return jnp.fft.ifft(1j * k.reshape(shape) * jnp.fft.fft(field, axis=axis), axis=axis).real
