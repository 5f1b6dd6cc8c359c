from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from jaxns_lite.samplers.abc import AbstractSampler, EphemeralState


class NestedSamplerState(NamedTuple):
    key: jax.Array
    log_L_contour: jax.Array


class TerminationRegister(NamedTuple):
    num_samples_used: jax.Array


def _collect_shell(
        live_point_collection: jax.Array,
        state: NestedSamplerState,
        termination_register: TerminationRegister,
        sampler: AbstractSampler,
        sampler_state: Any
):
    shell_size = live_point_collection.shape[0] // 2
    # Find and discard shell
    order = jnp.argsort(live_point_collection)
    log_L_contour = live_point_collection[order[shell_size - 1]]
    key, sample_key = jax.random.split(state.key, 2)
    state = state._replace(key=key, log_L_contour=log_L_contour)
    sample_keys = jax.random.split(sample_key, shell_size)
    new_samples = jax.vmap(lambda k: sampler.get_sample(k, log_L_contour, sampler_state))(sample_keys)
    live_point_collection = live_point_collection.at[order[:shell_size]].set(new_samples)
    termination_register = termination_register._replace(
        num_samples_used=termination_register.num_samples_used + shell_size
    )
    return live_point_collection, state, termination_register


def _main_ns_thread(
        live_point_collection: jax.Array,
        state: NestedSamplerState,
        termination_register: TerminationRegister,
        max_samples: int,
        sampler: AbstractSampler,
        num_discards_per_iteration: int = 1,
):
    class CarryType(NamedTuple):
        live_point_collection: jax.Array
        state: NestedSamplerState
        termination_register: TerminationRegister
        sampler_state: Any

    def cond(carry: CarryType):
        return carry.termination_register.num_samples_used < max_samples

    def body(carry: CarryType) -> CarryType:
        # Discard half the live points and replace them with new samples

        key, ephemeral_key = jax.random.split(carry.state.key, 2)
        ephemeral_state = EphemeralState(
            key=ephemeral_key,
            live_points_collection=carry.live_point_collection,
            termination_register=carry.termination_register
        )
        sampler_state = sampler.pre_process(ephemeral_state)

        live_point_collection, state, termination_register = ..., ..., ...  # so IDE doesnt complain
        for _ in range(num_discards_per_iteration):
            live_point_collection, state, termination_register = _collect_shell(
                live_point_collection=carry.live_point_collection,
                state=carry.state,
                sampler=sampler,
                termination_register=carry.termination_register,
                sampler_state=sampler_state
            )
            key, ephemeral_key = jax.random.split(carry.state.key, 2)
            ephemeral_state = EphemeralState(
                key=ephemeral_key,
                live_points_collection=carry.live_point_collection,
                termination_register=carry.termination_register
            )
            sampler_state = sampler.post_process(ephemeral_state=ephemeral_state, sampler_state=sampler_state)

        return CarryType(live_point_collection, state, termination_register, sampler_state)

    init_sampler_state = sampler.pre_process(EphemeralState(state.key, live_point_collection, termination_register))
    carry = jax.lax.while_loop(
        cond, body, CarryType(live_point_collection, state, termination_register, init_sampler_state)
    )
    return carry.live_point_collection, carry.state, carry.termination_register, carry.sampler_state
