from functools import partial

import haiku as hk
import jax

__all__ = ()


def fit_wf(rng, ansatz, sampler, params, smpl_state, steps):
    @jax.jit
    def sample_wf(rng, state, params):
        return sampler.sample(rng, state, partial(ansatz.apply, params))

    for step, rng in zip(steps, hk.PRNGSequence(rng)):
        smpl_state, r, smpl_stats = sample_wf(rng, smpl_state, params)
        yield step, smpl_state, smpl_stats
