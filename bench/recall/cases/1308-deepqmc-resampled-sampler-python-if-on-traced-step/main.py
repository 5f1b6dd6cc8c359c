from collections import namedtuple

import haiku as hk
import jax
import jax.numpy as jnp

from deepqmc_lite.fit import fit_wf
from deepqmc_lite.sampling import MetropolisSampler, ResampledSampler, chain

Psi = namedtuple('Psi', 'sign log')


class Hamiltonian:
    def init_sample(self, rng, n):
        return jax.random.normal(rng, (n, 2, 3))


def wf_fn(state, r):
    return Psi(jnp.ones(()), -jnp.sum(jnp.linalg.norm(r, axis=-1))), state


if __name__ == "__main__":
    ansatz = hk.without_apply_rng(hk.transform(lambda state, r: wf_fn(state, r)))
    sampler = chain(ResampledSampler(frequency=2), MetropolisSampler(Hamiltonian(), tau=0.1))
    params = {}
    smpl_state = sampler.init(jax.random.PRNGKey(0), lambda s, r: wf_fn(s, r), {}, 16)
    try:
        for step, smpl_state, stats in fit_wf(jax.random.PRNGKey(1), ansatz, sampler, params, smpl_state, range(4)):
            pass
        print(f"sampled 4 steps, step counter {int(smpl_state['step'])}")
    except jax.errors.TracerBoolConversionError as e:
        print(f"TracerBoolConversionError: {str(e).splitlines()[0][:80]}")
