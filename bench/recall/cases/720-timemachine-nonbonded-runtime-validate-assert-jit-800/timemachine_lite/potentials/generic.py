from dataclasses import dataclass
from functools import partial

import jax.numpy as jnp

from timemachine_lite.potentials import nonbonded


@dataclass
class Nonbonded:
    num_atoms: int
    beta: float
    cutoff: float

    def to_reference(self):
        mask = jnp.ones((self.num_atoms, self.num_atoms))
        return partial(
            nonbonded.nonbonded_v3,
            charge_rescale_mask=mask,
            beta=self.beta,
            cutoff=self.cutoff,
        )
