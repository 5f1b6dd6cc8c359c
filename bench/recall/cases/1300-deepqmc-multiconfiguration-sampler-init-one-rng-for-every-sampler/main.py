import jax
import jax.numpy as jnp

from deepqmc_lite.hamil import MolecularHamiltonian
from deepqmc_lite.sampling import MetropolisSampler, MulticonfigurationSampler


def wf(r):
    return -jnp.sum(jnp.linalg.norm(r, axis=-1))


if __name__ == "__main__":
    R = jnp.array([[0.0, 0.0, 0.0], [0.0, 0.0, 1.4]])
    hamil = MolecularHamiltonian(n_elec=2)
    sampler = MulticonfigurationSampler(
        [MetropolisSampler(hamil, R), MetropolisSampler(hamil, R, tau=0.5)]
    )
    states = sampler.init(jax.random.PRNGKey(0), wf, 8)
    same = bool(jnp.array_equal(states[0]['r'], states[1]['r']))
    print(f"configurations start from the same walkers: {same}")
