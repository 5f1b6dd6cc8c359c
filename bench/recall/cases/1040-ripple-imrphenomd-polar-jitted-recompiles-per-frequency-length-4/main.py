import jax.numpy as jnp

from ripple_lite.waveforms.IMRPhenomD import gen_IMRPhenomD_polar

theta = jnp.array([20.0, 0.2, 0.1, 0.1, 440.0, 0.0, 0.0, 0.3, 0.2])

if __name__ == "__main__":
    # heterodyned likelihood: the waveform is evaluated on frequency grids
    # whose length changes from one evaluation to the next
    for n_bins in (64, 100, 257):
        f = jnp.linspace(20.0, 1024.0, n_bins)
        hp, hc = gen_IMRPhenomD_polar(f, theta)
        print(n_bins, hp.shape)
