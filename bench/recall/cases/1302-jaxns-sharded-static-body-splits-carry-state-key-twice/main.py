import jax
import jax.numpy as jnp

from jaxns_lite.nested_samplers.sharded_static import (
    NestedSamplerState, TerminationRegister, _main_ns_thread)
from jaxns_lite.samplers.abc import AbstractSampler


class JitterSampler(AbstractSampler):
    """Draws a random step scale before the shell and a random refresh after it."""

    def _pre_process(self, ephemeral_state):
        return {'pre': jax.random.uniform(ephemeral_state.key), 'post': jnp.zeros(())}

    def _post_process(self, ephemeral_state, sampler_state):
        return {**sampler_state, 'post': jax.random.uniform(ephemeral_state.key)}

    def get_sample(self, key, log_L_constraint, sampler_state):
        return log_L_constraint + jax.random.exponential(key) * sampler_state['pre']


if __name__ == "__main__":
    live = jax.random.normal(jax.random.PRNGKey(1), (8,))
    state = NestedSamplerState(key=jax.random.PRNGKey(0), log_L_contour=jnp.asarray(-jnp.inf))
    register = TerminationRegister(num_samples_used=jnp.asarray(0))
    run = jax.jit(_main_ns_thread, static_argnames=("max_samples", "sampler", "num_discards_per_iteration"))
    _, _, _, sampler_state = run(live, state, register, max_samples=4, sampler=JitterSampler())
    same = bool(sampler_state['pre'] == sampler_state['post'])
    print(f"pre_process and post_process drew the same number: {same}")
