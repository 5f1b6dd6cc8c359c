import jax
import jax.numpy as jnp


class PhysicalConfiguration:
    def __init__(self, r):
        self.r = r


class MolecularHamiltonian:
    def __init__(self, n_elec):
        self.n_elec = n_elec

    def init_sample(self, rng, R, n):
        rng_elec, rng_pos = jax.random.split(rng)
        idxs = jax.random.randint(rng_elec, (n, self.n_elec), 0, len(R))
        r = R[idxs] + jax.random.normal(rng_pos, (n, self.n_elec, 3))
        return PhysicalConfiguration(r)
