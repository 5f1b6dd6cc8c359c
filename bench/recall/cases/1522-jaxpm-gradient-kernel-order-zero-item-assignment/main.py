import jax.numpy as jnp

from jaxpm_lite.kernels import gradient_kernel


def fftk(shape):
    # stand-in for jaxpm.kernels.fftk (jaxdecomp's fftfreq3d): broadcastable wave numbers
    k = [jnp.fft.fftfreq(n) * 2 * jnp.pi for n in shape]
    return [k[0].reshape(-1, 1, 1), k[1].reshape(1, -1, 1), k[2].reshape(1, 1, -1)]


if __name__ == "__main__":
    kvec = fftk((8, 8, 8))
    wts = gradient_kernel(kvec, 0, order=0)
    print("nyquist weight:", complex(wts.reshape(-1)[4]))
