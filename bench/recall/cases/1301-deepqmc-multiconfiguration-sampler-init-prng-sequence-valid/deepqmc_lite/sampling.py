import haiku as hk
import jax
import jax.numpy as jnp


class Sampler:
    r"""Base class for all QMC samplers."""

    def init(self, rng, wf, n, state_callback=None, wf_state=None):
        raise NotImplementedError

    def sample(self, rng, state, wf):
        raise NotImplementedError


class MetropolisSampler(Sampler):
    WALKER_STATE = ['r', 'psi', 'age']

    def __init__(self, hamil, R, *, tau=1.0, target_acceptance=0.57, max_age=None):
        self.hamil = hamil
        self.R = jnp.asarray(R, dtype=jnp.float32)
        self.initial_tau = tau
        self.target_acceptance = target_acceptance
        self.max_age = max_age

    def _update(self, state, wf):
        psi = jax.vmap(wf)(state['r'])
        state = {**state, 'psi': psi}
        return state

    def update(self, state, wf):
        return self._update(state, wf)

    def init(self, rng, wf, n, state_callback=None, wf_state=None):
        state = {
            'r': self.hamil.init_sample(rng, self.R, n).r,
            'age': jnp.zeros(n, jnp.int32),
            'tau': jnp.array(self.initial_tau),
            'wf': wf_state or {},
        }
        return self._update(state, wf)


class MulticonfigurationSampler(Sampler):
    def __init__(self, samplers, config_idx_factory=None):
        self.samplers = samplers if isinstance(samplers, (list, tuple)) else [samplers]

        def default_idx_factory(sample_size, n_config, *args, **kwargs):
            assert not (sample_size % n_config)
            return n_config * [sample_size // n_config]

        self.config_idx_factory = config_idx_factory or default_idx_factory

    def init(self, rng, wf, n, state_callback=None, wf_state=None):
        wfs = self.assign_wfs(wf)
        states = [
            sampler.init(rng, wf, n, state_callback, wf_state)
            for rng, wf, sampler in zip(hk.PRNGSequence(rng), wfs, self.samplers)
        ]
        return states

    def assign_wfs(self, wf):
        r"""Assign WF models to all configurations."""
        return wf if isinstance(wf, (list, tuple)) else len(self.samplers) * [wf]
