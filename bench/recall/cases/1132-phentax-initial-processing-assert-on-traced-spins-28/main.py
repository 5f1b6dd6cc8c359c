import jax
import jax.numpy as jnp

from phentax_lite.waveform import IMRPhenomTHM

if __name__ == "__main__":
    wf = IMRPhenomTHM(T=600.0)

    @jax.jit
    def process(m1, m2, chi1z, chi2z):
        return wf.initial_processing(m1, m2, chi1z, chi2z, delta_t=15.0)

    try:
        wf_params, times, mask = process(1e6, 5e5, 0.3, -0.2)
        print("grid points:", times.shape[0])
    except Exception as exc:
        print(type(exc).__name__, str(exc).splitlines()[0])
