import jax.numpy as jnp

from jester_lite.inference.flows import Flow
from jester_lite.inference.likelihoods import NICERLikelihood

if __name__ == "__main__":
    amsterdam = Flow(loc=[1.4, 12.0], scale=[0.1, 0.5])
    maryland = Flow(loc=[1.5, 12.5], scale=[0.2, 0.7])
    lik = NICERLikelihood("J0030", amsterdam, maryland, N_masses_evaluation=100)
    z_a = (lik.amsterdam_fixed_mass_samples[:, 0] - 1.4) / 0.1
    z_m = (lik.maryland_fixed_mass_samples[:, 0] - 1.5) / 0.2
    print("same draws:", bool(jnp.allclose(z_a, z_m, atol=1e-4)))
