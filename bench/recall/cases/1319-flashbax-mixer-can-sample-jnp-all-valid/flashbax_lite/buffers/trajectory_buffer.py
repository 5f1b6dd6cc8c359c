"""Trajectory buffer (reduced): a state of stacked experience and the pure functions on it."""
import functools
from typing import Callable

import chex
import jax
import jax.numpy as jnp
from chex import dataclass


@dataclass(frozen=True)
class TrajectoryBufferState:
    experience: chex.ArrayTree
    current_index: chex.Array
    is_full: chex.Array


@dataclass(frozen=True)
class TrajectoryBufferSample:
    experience: chex.ArrayTree


@dataclass(frozen=True)
class TrajectoryBuffer:
    init: Callable
    add: Callable
    sample: Callable
    can_sample: Callable


def init(experience, max_length_time_axis):
    experience = jax.tree_util.tree_map(
        lambda x: jnp.zeros((max_length_time_axis, *x.shape), x.dtype), experience
    )
    return TrajectoryBufferState(
        experience=experience, current_index=jnp.array(0), is_full=jnp.array(False)
    )


def add(state, batch, max_length_time_axis):
    n = jax.tree_util.tree_leaves(batch)[0].shape[0]
    idx = (state.current_index + jnp.arange(n)) % max_length_time_axis
    experience = jax.tree_util.tree_map(lambda x, b: x.at[idx].set(b), state.experience, batch)
    new_index = state.current_index + n
    return state.replace(
        experience=experience,
        current_index=new_index % max_length_time_axis,
        is_full=state.is_full | (new_index >= max_length_time_axis),
    )


def sample(state, rng_key, batch_size, max_length_time_axis):
    upper = jnp.where(state.is_full, max_length_time_axis, state.current_index)
    idx = jax.random.randint(rng_key, (batch_size,), 0, upper)
    return TrajectoryBufferSample(
        experience=jax.tree_util.tree_map(lambda x: x[idx], state.experience)
    )


def can_sample(state, min_length_time_axis):
    return state.is_full | (state.current_index >= min_length_time_axis)


def make_trajectory_buffer(max_length_time_axis, min_length_time_axis, sample_batch_size):
    return TrajectoryBuffer(
        init=functools.partial(init, max_length_time_axis=max_length_time_axis),
        add=functools.partial(add, max_length_time_axis=max_length_time_axis),
        sample=functools.partial(
            sample, batch_size=sample_batch_size, max_length_time_axis=max_length_time_axis
        ),
        can_sample=functools.partial(can_sample, min_length_time_axis=min_length_time_axis),
    )
